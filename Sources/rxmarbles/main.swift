import RxMarblesKit
import RxMarblesServer

// The root command draws the gallery and the operators; it hands a subcommand, chosen
// by the first argument, the arguments after its name.
await RxMarblesCommand.main(Array(CommandLine.arguments.dropFirst())) { subcommand, arguments in
    switch subcommand {
    case .serve: await ServeCommand.main(arguments)
    case .lanes: LanesCommand.main(arguments)
    }
}
