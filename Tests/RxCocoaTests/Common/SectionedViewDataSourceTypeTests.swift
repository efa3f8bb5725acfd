import Foundation
import RxCocoa
import Testing

@Suite("SectionedViewDataSourceType")
struct SectionedViewDataSourceTypeTests {
    private struct Sections: SectionedViewDataSourceType {
        var sections: [[String]]?

        func model(at indexPath: IndexPath) throws -> Any {
            guard let sections else { throw RxCocoaError.itemsNotYetBound(object: self) }
            return sections[indexPath[0]][indexPath[1]]
        }
    }

    @Test("a data source gives the model at an index path, or throws before its items are bound")
    func model() throws {
        let bound: any SectionedViewDataSourceType = Sections(sections: [["a"], ["b", "c"]])
        #expect(try bound.model(at: IndexPath(indexes: [1, 1])) as? String == "c")
        let unbound: any SectionedViewDataSourceType = Sections(sections: nil)
        #expect(throws: RxCocoaError.self) { try unbound.model(at: IndexPath(indexes: [0, 0])) }
    }
}
