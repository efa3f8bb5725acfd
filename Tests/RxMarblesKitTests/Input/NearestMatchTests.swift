import Testing
@testable import RxMarblesKit

@Suite struct NearestMatchTests {
    @Test func editDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        #expect(NearestMatch.editDistance("kitten", "sitting") == 3)
        #expect(NearestMatch.editDistance("", "abc") == 3)
        #expect(NearestMatch.editDistance("map", "") == 3)
        #expect(NearestMatch.editDistance("map", "map") == 0)
        #expect(NearestMatch.editDistance("Map", "map") == 0)
        #expect(NearestMatch.editDistance("flter", "filter") == 1)
        #expect(NearestMatch.editDistance("tkae", "take") == 1)
        #expect(NearestMatch.editDistance("mpa", "map") == 1)
        #expect(NearestMatch.editDistance("foo", "of") == 2)
    }

    @Test func nearestPicksTheSmallestDistance() {
        let known = ["map", "filter", "take", "combineLatest", "concat"]
        #expect(NearestMatch.nearest(to: "fliter", in: known) == "filter")
        #expect(NearestMatch.nearest(to: "combinelatets", in: known) == "combineLatest")
        #expect(NearestMatch.nearest(to: "mpa", in: known) == "map")
        #expect(NearestMatch.nearest(to: "x", in: []) == nil)
    }

    @Test func aPrefixCountsAsClose() {
        #expect(NearestMatch.nearest(to: "combine", in: ["concat", "combineLatest", "zip"]) == "combineLatest")
    }

    @Test func unknownOperatorMessageNamesTheNearestAndListsAll() {
        let message = NearestMatch.unknownOperatorMessage("fitler", known: ["map", "filter", "take"])
        #expect(message.contains("Unknown operator 'fitler'"))
        #expect(message.contains("Did you mean 'filter'?"))
        #expect(message.contains("Known operators: map, filter, take"))
    }

    @Test func onlyACloseNameIsSuggested() {
        let known = ["map", "of", "filter", "take", "combineLatest"]
        #expect(NearestMatch.closeMatch(to: "mpa", in: known) == "map")
        #expect(NearestMatch.closeMatch(to: "fitler", in: known) == "filter")
        #expect(NearestMatch.closeMatch(to: "combine", in: known) == "combineLatest")
        #expect(NearestMatch.closeMatch(to: "foo", in: known) == nil)
        #expect(NearestMatch.closeMatch(to: "", in: known) == nil)
        #expect(NearestMatch.closeMatch(to: "debounceTimeLatest", in: known) == nil)
        #expect(!NearestMatch.unknownOperatorMessage("foo", known: known).contains("Did you mean"))
        #expect(NearestMatch.unknownOperatorMessage("", known: known).hasPrefix("No operator is named by an empty argument."))
    }
}
