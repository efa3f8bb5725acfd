// The generator of the traits' arity families, 2 to 8 sources: `Single.zip` and
// `Maybe.zip`, `Infallible.combineLatest` and `Infallible.zip`, and the shared
// sequences' `combineLatest` and `zip` (RxCocoa). Each overload is a thin wrapper: in
// RxSwift over the internal constructor of its arity (`combining` or
// `combiningTuples`, which take the trait's sources as they are; see
// ArityCodeGenerator.swift), in RxCocoa over the `Observable` overload of its arity.
// Those are generated rather than written with parameter packs (ArityCodeGenerator.swift
// says why); wrapping them with packs would have to go through the collection forms and
// lose the element types.
// `GeneratedFiles` lists the outputs; `swift run rivulet-generate` writes them.
public enum TraitsArityCodeGenerator {
    public static let arities = 2...8

    static func header(_ what: String, wrapping wrapped: String = "the `Observable` overload") -> String {
        GeneratedFiles.header(generator: "TraitsArityCodeGenerator.swift") + """
        //
        // \(what) for 2 to 8 sources, each a wrapper over \(wrapped).

        """
    }

    /// What the RxSwift traits' overloads wrap.
    private static let constructors = "the constructor of its arity (`combining` or `combiningTuples`)"

    public static func list(_ arity: Int, _ item: (Int) -> String) -> String {
        (1...arity).map(item).joined(separator: ", ")
    }

    static func tuple(_ arity: Int) -> String {
        "(" + list(arity) { "$\($0 - 1)" } + ")"
    }

    private static let combineLatestSelector = "Receives the latest element of each source."
    private static let zipSelector = "Receives the n-th element of each source."

    /// The parameters of an overload with a result selector that `selector` describes.
    private static func withSelector(_ arity: Int, _ selector: String) -> String {
        ParameterDocs.section(arity, source: ParameterDocs.selectorArgument, resultSelector: [selector])
    }

    /// The parameters of an overload that makes tuples.
    private static func intoTuples(_ arity: Int) -> String {
        ParameterDocs.section(arity, source: ParameterDocs.tupleElement)
    }

    // MARK: Single and Maybe

    public static func primitiveSequenceZip() -> String {
        var text = header("`Single.zip` and `Maybe.zip`", wrapping: constructors) + "\n"
        for arity in arities {
            text += "// MARK: - \(arity) sources\n"
            for (trait, name, outcome) in [
                ("SingleTrait", "singles", "Succeeds with `resultSelector` applied to their elements once all succeeded; the first failure fails it."),
                ("MaybeTrait", "maybes", "Succeeds with `resultSelector` applied to their elements once all succeeded; completes empty when one completes empty; the first error fails it."),
            ] {
                let generics = list(arity) { "E\($0)" }
                let parameters = list(arity) { "_ source\($0): PrimitiveSequence<Trait, E\($0)>" }
                text += "\n" + staticFunction(
                    in: "PrimitiveSequenceType where Trait == \(trait)", "Zips \(arity) \(name). \(outcome)",
                    withSelector(arity, "Receives the element of each source."),
                    "zip<\(generics)>(\(parameters), resultSelector: @escaping (\(generics)) throws -> Element) -> PrimitiveSequence<Trait, Element>",
                    "PrimitiveSequence(raw: \(ArityCodeGenerator.selectorBody(arity, rule: "zip")))")
                text += "\n\n" + staticFunction(
                    in: "PrimitiveSequenceType where Element == Any, Trait == \(trait)", "Zips \(arity) \(name) into a tuple of their elements.",
                    intoTuples(arity),
                    "zip<\(generics)>(\(parameters)) -> PrimitiveSequence<Trait, (\(generics))>",
                    "PrimitiveSequence(raw: \(ArityCodeGenerator.tupleBody(arity, rule: "zip")))") + "\n"
            }
        }
        return text
    }

    // MARK: Infallible

    /// `Infallible.combineLatest` and `Infallible.zip` in RxSwift's shapes: combineLatest
    /// takes any infallibles, with its tuple form on `InfallibleType`; zip's
    /// `resultSelector` form takes `Infallible`s and lives on `InfallibleType`. The tuple
    /// form of zip, which RxSwift lacks, takes any infallibles.
    static func infallible(_ operatorName: String, summary: String) -> String {
        var text = header("`Infallible.\(operatorName)`", wrapping: constructors) + "\n"
        let isZip = operatorName == "zip"
        for arity in arities {
            let anyGenerics = list(arity) { "I\($0): InfallibleType" }
            let anyParameters = list(arity) { "_ source\($0): I\($0)" }
            let anyElements = list(arity) { "I\($0).Element" }
            let tupleGenerics = list(arity) { "O\($0): InfallibleType" }
            let tupleParameters = list(arity) { "_ source\($0): O\($0)" }
            let tupleElements = list(arity) { "O\($0).Element" }
            let selectorBody = "Infallible(\(ArityCodeGenerator.selectorBody(arity, rule: operatorName)))"
            let tupleBody = "Infallible<(\(isZip ? anyElements : tupleElements))>(\(ArityCodeGenerator.tupleBody(arity, rule: operatorName)))"
            let selectorSummary = "\(summary) of \(arity) infallibles with `resultSelector`."
            let tupleSummary = "\(summary) of \(arity) infallibles into a tuple."
            let selectorParameters = withSelector(arity, isZip ? zipSelector : combineLatestSelector)
            let selectorForm: String
            let tupleForm: String
            if isZip {
                let generics = list(arity) { "E\($0)" }
                let parameters = list(arity) { "_ source\($0): Infallible<E\($0)>" }
                selectorForm = staticFunction(
                    in: "InfallibleType", selectorSummary, selectorParameters,
                    "zip<\(generics)>(\(parameters), resultSelector: @escaping (\(generics)) throws -> Element) -> Infallible<Element>",
                    selectorBody)
                tupleForm = staticFunction(
                    in: "Infallible where Element == Any", tupleSummary, intoTuples(arity),
                    "zip<\(anyGenerics)>(\(anyParameters)) -> Infallible<(\(anyElements))>",
                    tupleBody)
            } else {
                selectorForm = staticFunction(
                    in: "Infallible", selectorSummary, selectorParameters,
                    "combineLatest<\(anyGenerics)>(\(anyParameters), resultSelector: @escaping (\(anyElements)) throws -> Element) -> Infallible<Element>",
                    selectorBody)
                tupleForm = staticFunction(
                    in: "InfallibleType where Element == Any", tupleSummary, intoTuples(arity),
                    "combineLatest<\(tupleGenerics)>(\(tupleParameters)) -> Infallible<(\(tupleElements))>",
                    tupleBody)
            }
            text += "// MARK: - \(arity) sources\n\n" + selectorForm + "\n\n" + tupleForm + "\n\n\n"
        }
        return text
    }

    /// One public static function with a one-line body, alone in an extension; its doc
    /// comment is the summary and the `- Parameters:` section.
    private static func staticFunction(
        in extended: String, _ summary: String, _ parameters: String, _ signature: String, _ body: String
    ) -> String {
        """
        extension \(extended) {
            /// \(summary)
            ///
        \(parameters)
            public static func \(signature) {
                \(body)
            }
        }
        """
    }

    // MARK: SharedSequence

    public static func sharedSequence() -> String {
        var text = header("The shared sequences' `combineLatest` and `zip`") + "\nimport RxSwift\n\n"
        for arity in arities {
            let generics = list(arity) { "O\($0): SharedSequenceConvertibleType" }
            let parameters = list(arity) { "_ source\($0): O\($0)" }
            let elements = list(arity) { "O\($0).Element" }
            let sources = list(arity) { "source\($0).asSharedSequence().asObservable()" }
            let sameStrategy = list(arity) { "SharingStrategy == O\($0).SharingStrategy" }
            text += "// MARK: - \(arity) sources\n"
            for (operatorName, summary, selector) in [
                ("combineLatest", "Combines the latest elements, each time one emits once all have,", combineLatestSelector),
                ("zip", "Pairs the n-th elements", zipSelector),
            ] {
                text += "\n" + staticFunction(
                    in: "SharedSequence", "\(summary) of \(arity) shared sequences with `resultSelector`.",
                    withSelector(arity, selector),
                    "\(operatorName)<\(generics)>(\(parameters), resultSelector: @escaping (\(elements)) throws -> Element) -> SharedSequence<SharingStrategy, Element> where \(sameStrategy)",
                    "SharedSequence(Observable.\(operatorName)(\(sources), resultSelector: resultSelector))")
                text += "\n\n" + staticFunction(
                    in: "SharedSequenceConvertibleType where Element == Any", "\(summary) of \(arity) shared sequences into a tuple.",
                    intoTuples(arity),
                    "\(operatorName)<\(generics)>(\(parameters)) -> SharedSequence<SharingStrategy, (\(elements))> where \(sameStrategy)",
                    "SharedSequence<SharingStrategy, (\(elements))>(Observable.\(operatorName)(\(sources)) { \(tuple(arity)) })") + "\n"
            }
            text += "\n"
        }
        return text
    }

    static var outputs: [GeneratedFile] {
        [
            GeneratedFile("Sources/RxSwift/Traits/PrimitiveSequence/PrimitiveSequence+Zip+Arity.generated.swift", primitiveSequenceZip()),
            GeneratedFile("Sources/RxSwift/Traits/Infallible/Infallible+CombineLatest+Arity.generated.swift",
                          infallible("combineLatest", summary: "Combines the latest elements, each time one emits once all have,")),
            GeneratedFile("Sources/RxSwift/Traits/Infallible/Infallible+Zip+Arity.generated.swift",
                          infallible("zip", summary: "Pairs the n-th elements")),
            GeneratedFile("Sources/RxCocoa/Traits/SharedSequence/SharedSequence+Operators+Arity.generated.swift", sharedSequence()),
        ]
    }
}
