import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// A layer's background colour and border, drawn in a window on Xvfb: the grab's pixels are
/// the colours where the layers lie, the border inside its layer's bounds and above its
/// sublayers, a hidden layer's colours nowhere.
extension DisplayLayerTests {
    @Test func backgroundsAndBordersAreDrawnWhereTheLayersLie() throws {
        let server = try Self.server.get()
        let root = CALayer()
        root.backgroundColor = CGColor(srgbRed: 1, green: 0, blue: 0, alpha: 1)
        let framed = CALayer()
        framed.frame = CGRect(x: 100, y: 100, width: 200, height: 120)
        framed.backgroundColor = CGColor(gray: 1, alpha: 1)
        framed.borderWidth = 6
        #expect(framed.borderColor == .black, "Apple's default border colour")
        framed.borderColor = CGColor(srgbRed: 0, green: 1, blue: 0, alpha: 1)
        // A sublayer reaching under the border: the border is drawn above it.
        let inner = CALayer()
        inner.frame = CGRect(x: -20, y: 50, width: 60, height: 20)
        inner.backgroundColor = CGColor(srgbRed: 0, green: 0, blue: 1, alpha: 1)
        framed.addSublayer(inner)
        let hidden = CALayer()
        hidden.frame = CGRect(x: 400, y: 300, width: 50, height: 50)
        hidden.backgroundColor = CGColor(srgbRed: 0, green: 0, blue: 1, alpha: 1)
        hidden.isHidden = true
        root.addSublayer(framed)
        root.addSublayer(hidden)
        let window = try AVDisplayWindow(layer: root, title: "layer colours", size: CGSize(width: 640, height: 480), origin: .zero)
        defer { window.close() }

        func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(rgb[(y * 640 + x) * 3..<(y * 640 + x) * 3 + 3]) }
        let (red, green, blue, white): ([UInt8], [UInt8], [UInt8], [UInt8]) = ([255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255])
        let screen = try Self.waitForPicture(server, width: 640, height: 480) { pixel($0, 200, 160) == white }
        let expected: [(x: Int, y: Int, color: [UInt8], what: String)] = [
            (10, 10, red, "root background"), (425, 325, red, "under the hidden layer"),
            (200, 160, white, "framed background"), (110, 120, white, "inside the border"),
            (100, 100, green, "border, top left"), (299, 219, green, "border, bottom right"), (102, 160, green, "left border"),
            (200, 105, green, "top border"), (99, 120, red, "just outside the border"),
            (90, 160, blue, "sublayer outside its superlayer"), (103, 160, green, "border above the sublayer"),
            (120, 160, blue, "sublayer inside"),
        ]
        for point in expected {
            #expect(pixel(screen, point.x, point.y) == point.color, "\(point.what) at (\(point.x), \(point.y)): \(pixel(screen, point.x, point.y))")
        }
    }
}
