/// The marble text of each input of an example, as a user would type it with
/// `--input`: one character per frame from frame 0, up to the stream's last event.
extension GalleryEntry {
    /// The default inputs written as marble text; giving them back as inputs runs the
    /// same example.
    public var defaultInputMarbles: [String] {
        let diagram = diagram()
        return diagram.inputs.map { $0.marbleText(frameCount: diagram.frameCount) }
    }
}

extension Timeline {
    /// The stream as marble text over `frameCount` frames, without the line after its
    /// last event (an input that does not end keeps going without it).
    public func marbleText(frameCount: Int) -> String {
        var text = ""
        for cell in MarbleLayout.cells(of: self, frameCount: frameCount) {
            switch cell {
            case .ended: break
            case .subscribed: text += "-"
            default: text += cell.text(keys: .none)
            }
        }
        while text.hasSuffix("-") {
            text.removeLast()
        }
        return text
    }
}
