import Foundation
import Testing
import OpenCoreVideo

@Suite(.timeLimit(.minutes(10))) struct CGAffineTransformTests {
    private func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: Double = 1e-12) -> Bool {
        abs(Double(a.x - b.x)) <= tolerance && abs(Double(a.y - b.y)) <= tolerance
    }

    private func close(_ a: CGAffineTransform, _ b: CGAffineTransform, _ tolerance: Double = 1e-12) -> Bool {
        [a.a - b.a, a.b - b.b, a.c - b.c, a.d - b.d, a.tx - b.tx, a.ty - b.ty].allSatisfy { abs(Double($0)) <= tolerance }
    }

    @Test func rotationByHalfPiMapsXAxisToYAxis() {
        let rotated = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(rotated, CGPoint(x: 0, y: 1)))
        let back = CGPoint(x: 0, y: 1).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(back, CGPoint(x: -1, y: 0)))
    }

    @Test func concatenatingAppliesSelfFirst() {
        let scale = CGAffineTransform(scaleX: 2, y: 3)
        let move = CGAffineTransform(translationX: 10, y: 20)
        let point = CGPoint(x: 1, y: 1)
        #expect(point.applying(scale.concatenating(move)) == CGPoint(x: 12, y: 23))
        #expect(point.applying(move.concatenating(scale)) == CGPoint(x: 22, y: 63))
        #expect(point.applying(scale.concatenating(move)) == point.applying(scale).applying(move))
    }

    @Test func methodsPrependTheirOperation() {
        let move = CGAffineTransform(translationX: 10, y: 0)
        // translatedBy/scaledBy/rotated apply the new operation before the existing transform.
        #expect(CGPoint(x: 1, y: 1).applying(move.scaledBy(x: 2, y: 2)) == CGPoint(x: 12, y: 2))
        #expect(CGPoint(x: 0, y: 0).applying(CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 5, y: 1)) == CGPoint(x: 10, y: 2))
        let turned = CGPoint(x: 1, y: 0).applying(move.rotated(by: .pi / 2))
        #expect(close(turned, CGPoint(x: 10, y: 1)))
    }

    @Test func inverseComposesToIdentity() {
        let samples = [
            CGAffineTransform(a: 2, b: 1, c: -0.5, d: 3, tx: 7, ty: -4),
            CGAffineTransform(rotationAngle: 0.7).scaledBy(x: 3, y: 0.25).translatedBy(x: -9, y: 2),
            CGAffineTransform(translationX: 100, y: -50),
        ]
        for t in samples {
            #expect(close(t.inverted().concatenating(t), .identity))
            #expect(close(t.concatenating(t.inverted()), .identity))
            let p = CGPoint(x: 3.5, y: -2)
            #expect(close(p.applying(t).applying(t.inverted()), p, 1e-9))
        }
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 6)
        #expect(singular.inverted() == singular)
    }

    @Test func identityAndEquality() {
        #expect(CGAffineTransform.identity.isIdentity)
        #expect(CGAffineTransform().isIdentity)
        #expect(!CGAffineTransform(translationX: 1, y: 0).isIdentity)
        #expect(CGAffineTransform(scaleX: 1, y: 1) == .identity)
        #expect(Set([CGAffineTransform.identity, CGAffineTransform()]).count == 1)
    }

    @Test func rectAndSizeApplying() {
        let rect = CGRect(x: 0, y: 0, width: 1920, height: 1080)
        let portrait = rect.applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(abs(Double(portrait.minX) + 1080) < 1e-9)
        #expect(abs(Double(portrait.minY)) < 1e-9)
        #expect(abs(Double(portrait.width) - 1080) < 1e-9)
        #expect(abs(Double(portrait.height) - 1920) < 1e-9)
        let box = CGRect(x: 0, y: 0, width: 2, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 4))
        #expect(abs(Double(box.width) - 2 * 2.0.squareRoot()) < 1e-12)
        #expect(abs(Double(box.minX) + 2.0.squareRoot()) < 1e-12)
        #expect(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
        let size = CGSize(width: 4, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(abs(Double(size.width) + 2) < 1e-12 && abs(Double(size.height) - 4) < 1e-12)
        #expect(CGSize(width: 4, height: 2).applying(CGAffineTransform(translationX: 9, y: 9)) == CGSize(width: 4, height: 2))
    }
}
