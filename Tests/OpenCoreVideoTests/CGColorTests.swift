import Foundation
import Testing
import OpenCoreVideo

@Suite(.timeLimit(.minutes(10))) struct CGColorTests {
    @Test func componentsAlphaAndSpaces() throws {
        let color = CGColor(srgbRed: 1, green: 0.5, blue: 0.25, alpha: 0.75)
        #expect(color.components == [1, 0.5, 0.25, 0.75])
        #expect(color.numberOfComponents == 4)
        #expect(color.alpha == 0.75)
        #expect(color.colorSpace?.name == CGColorSpace.sRGB)
        let faded = try #require(color.copy(alpha: 0.1))
        #expect(faded.components == [1, 0.5, 0.25, 0.1])
        #expect(CGColor.black.components == [0, 1])
        #expect(CGColor.white.components == [1, 1])
        #expect(CGColor.clear.alpha == 0)
        #expect(CGColor(gray: 0.5, alpha: 1).colorSpace?.numberOfComponents == 1)
        #expect(CGColor(red: 0, green: 0, blue: 0, alpha: 1).numberOfComponents == 4)
    }

    @Test func namedColorSpaces() {
        for name in [CGColorSpace.sRGB, CGColorSpace.genericRGBLinear, CGColorSpace.itur_709, CGColorSpace.itur_2020, CGColorSpace.displayP3] {
            #expect(CGColorSpace(name: name)?.numberOfComponents == 3)
            #expect(CGColorSpace(name: name)?.name == name)
        }
        #expect(CGColorSpace(name: CGColorSpace.linearGray)?.numberOfComponents == 1)
        #expect(CGColorSpace(name: "not a space") == nil)
        #expect(CGColorSpaceCreateDeviceRGB().numberOfComponents == 3)
        #expect(CGColorSpaceCreateDeviceGray().numberOfComponents == 1)
        #expect(CGColorSpace.sRGB == "kCGColorSpaceSRGB")
    }
}
