import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// `AVCaptureScreenInput`'s pointer on a private Xvfb server: the root window's cursor (a known
/// two-colour rectangle) appears in the frames at the pointer's position, moves with it, is
/// clipped by a crop rectangle, and is gone with `capturesCursor` false; a button held down
/// through XTEST shows the click ring with `capturesMouseClicks`, and only then. Holds the
/// heavy-load lock, as the other screen capture suite does.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct CaptureScreenInputPointerTests {
    static let background: UInt32 = 0x404040
    /// The cursor: 16×16, magenta left half, cyan right half, hotspot at (4, 4).
    static let left: UInt32 = 0xFF00FF, right: UInt32 = 0x00FFFF
    static let hotspot = (x: 4, y: 4)

    /// A running session on a fresh server with the test cursor; the sampler sees its frames.
    private static func start(_ width: Int = 320, _ height: Int = 240,
                              configure: (AVCaptureScreenInput) -> Void = { _ in })
        throws -> (XvfbServer, AVCaptureScreenInput, AVCaptureSession, CaptureFrameSampler) {
        let xvfb = try XvfbServer(width: width, height: height)
        try xvfb.paint(background)
        try xvfb.setCursor(width: 16, height: 16, hotspot: hotspot, left: left, right: right)
        let input = try #require(X11Screen.$displayName.withValue(xvfb.display) { AVCaptureScreenInput(displayID: 0) })
        configure(input)
        let sampler = CaptureFrameSampler()
        let session = CaptureScreenInputTests.session(input, sampler)
        session.startRunning()
        return (xvfb, input, session, sampler)
    }

    /// Whether `picture` shows the test cursor with its hotspot at (`x`, `y`) (in the picture),
    /// exactly: both halves inside, the background just outside each edge. Edges outside the
    /// picture are not looked at.
    static func showsCursor(_ picture: CaptureFrameSampler.Picture, at x: Int, _ y: Int) -> Bool {
        let (left, top) = (x - hotspot.x, y - hotspot.y)
        var expected: [(Int, Int, UInt32)] = [
            (left, top, Self.left), (left + 7, top + 15, Self.left), (left + 8, top, Self.right), (left + 15, top + 15, Self.right),
            (left - 1, top + 8, background), (left + 16, top + 8, background),
            (left + 8, top - 1, background), (left + 8, top + 16, background),
        ]
        expected.removeAll { !(0..<picture.width).contains($0.0) || !(0..<picture.height).contains($0.1) }
        return !expected.isEmpty && expected.allSatisfy { CaptureScreenInputTests.near(picture.rgb($0.0, $0.1), $0.2, tolerance: 0) }
    }

    /// Whether every pixel of the 16×16 square the cursor would cover (clipped) is background.
    static func showsNoCursor(_ picture: CaptureFrameSampler.Picture, at x: Int, _ y: Int) -> Bool {
        let (left, top) = (x - hotspot.x, y - hotspot.y)
        for row in stride(from: max(0, top), to: min(picture.height, top + 16), by: 1) {
            for column in stride(from: max(0, left), to: min(picture.width, left + 16), by: 1)
            where !CaptureScreenInputTests.near(picture.rgb(column, row), background, tolerance: 0) {
                return false
            }
        }
        return true
    }

    @Test func drawsTheCursorAtThePointerUnlessAskedNotTo() throws {
        let (xvfb, input, session, sampler) = try Self.start()
        defer {
            session.stopRunning()
            xvfb.stop()
        }
        #expect(input.capturesCursor, "Apple's default")
        try xvfb.movePointer(x: 150, y: 100)
        let first = sampler.picture(after: sampler.count, timeout: 10) { Self.showsCursor($0, at: 150, 100) }
        #expect(first != nil, "the cursor never showed at (150, 100)")

        // It follows the pointer: at the new place, and gone from the old one.
        try xvfb.movePointer(x: 40, y: 200)
        let moved = sampler.picture(after: sampler.count, timeout: 10) { Self.showsCursor($0, at: 40, 200) }
        #expect(moved.map { Self.showsNoCursor($0, at: 150, 100) } == true, "the cursor did not move to (40, 200)")

        // A crop rectangle shows it relative to its corner, clipped at its edge.
        input.cropRect = CGRect(x: 30, y: 190, width: 100, height: 50)
        let cropped = sampler.picture(after: sampler.count, timeout: 10) { $0.width == 100 && Self.showsCursor($0, at: 10, 10) }
        #expect(cropped != nil, "the cursor is not at (10, 10) of the crop")
        try xvfb.movePointer(x: 31, y: 191)
        let clipped = sampler.picture(after: sampler.count, timeout: 10) { Self.showsCursor($0, at: 1, 1) }
        #expect(clipped.map { CaptureScreenInputTests.near($0.rgb(0, 0), Self.left, tolerance: 0) } == true,
                "the clipped cursor is not at the crop's corner")

        // capturesCursor false: the picture alone, in every later frame.
        input.capturesCursor = false
        let hidden = try #require(sampler.picture(after: sampler.count, timeout: 10) { Self.showsNoCursor($0, at: 1, 1) },
                                  "the cursor never went away")
        let after = sampler.count
        let later = try #require(sampler.picture(after: after + 3, timeout: 10), "no frames after the cursor went away")
        #expect(Self.showsNoCursor(later, at: 1, 1) && hidden.width == 100)
    }

    @Test func highlightsClicksWithARingOnlyWhenAsked() throws {
        let (xvfb, input, session, sampler) = try Self.start()
        defer {
            try? xvfb.setButton(1, down: false)
            session.stopRunning()
            xvfb.stop()
        }
        #expect(!input.capturesMouseClicks, "Apple's default")
        let (x, y) = (160, 120)
        try xvfb.movePointer(x: x, y: y)
        let radius = X11Pointer.clickRingRadius, ring = X11Pointer.clickRingColor
        /// Ring colour at the four points of the circle, background inside and outside it.
        let showsRing = { (picture: CaptureFrameSampler.Picture) -> Bool in
            [(x + radius, y), (x - radius, y), (x, y + radius), (x, y - radius)].allSatisfy {
                CaptureScreenInputTests.near(picture.rgb($0.0, $0.1), ring, tolerance: 0)
            } && [(x, y), (x + radius - 6, y), (x + radius + 6, y), (x, y - radius - 6)].allSatisfy {
                CaptureScreenInputTests.near(picture.rgb($0.0, $0.1), Self.background, tolerance: 0)
            }
        }
        let showsNoRing = { (picture: CaptureFrameSampler.Picture) -> Bool in
            CaptureScreenInputTests.near(picture.rgb(x + radius, y), Self.background, tolerance: 0)
                && CaptureScreenInputTests.near(picture.rgb(x, y - radius), Self.background, tolerance: 0)
        }

        // Not asked: a held button changes nothing (the cursor is drawn, so the pointer is
        // looked at), in frames grabbed well after the press.
        try xvfb.setButton(1, down: true)
        let unasked = try #require(sampler.picture(after: sampler.count + 5, timeout: 10), "no frames")
        #expect(Self.showsCursor(unasked, at: x, y) && showsNoRing(unasked), "a ring without capturesMouseClicks")

        // Asked, without the cursor (which would cover the ring's centre).
        input.capturesCursor = false
        input.capturesMouseClicks = true
        #expect(sampler.picture(after: sampler.count, timeout: 10, where: showsRing) != nil, "no ring while the button is down")
        try xvfb.setButton(1, down: false)
        #expect(sampler.picture(after: sampler.count, timeout: 10, where: showsNoRing) != nil, "the ring stayed after the release")
        try xvfb.setButton(3, down: true)
        #expect(sampler.picture(after: sampler.count, timeout: 10, where: showsRing) != nil, "no ring for the right button")
    }
}
