import RxMarblesKit
import RxMarblesServer

// `rxmarbles serve` runs the playground server; everything else is the gallery.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "serve" {
    await ServeCommand.main(Array(arguments.dropFirst()))
} else {
    RxMarblesCommand.main(arguments)
}
