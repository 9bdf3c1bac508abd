import Foundation

// ImageIO's image property keys that photo metadata uses (`AVCapturePhoto.metadata`, the
// attachments of `AVCaptureStillImageOutput`'s sample buffers). Linux addition: on Apple
// platforms these are ImageIO's.

/// The EXIF orientation of an image (1 is upright), a number.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyOrientation: CFString = "Orientation"
/// The dictionary of EXIF properties.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyExifDictionary: CFString = "{Exif}"
/// EXIF: the width of the image in pixels, a number.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyExifPixelXDimension: CFString = "PixelXDimension"
/// EXIF: the height of the image in pixels, a number.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyExifPixelYDimension: CFString = "PixelYDimension"
/// EXIF: when the image was taken, a string "yyyy:MM:dd HH:mm:ss" in local time.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyExifDateTimeOriginal: CFString = "DateTimeOriginal"
/// A comment the user wrote, in the Exif dictionary.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyExifUserComment: CFString = "UserComment"
/// The GPS dictionary of an image's properties (location, altitude, time).
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyGPSDictionary: CFString = "{GPS}"
/// The dictionary of TIFF properties.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyTIFFDictionary: CFString = "{TIFF}"
/// TIFF: who made the camera, a string.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyTIFFMake: CFString = "Make"
/// TIFF: the camera's model, a string.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyTIFFModel: CFString = "Model"
/// TIFF: the software that made the image, a string.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyTIFFSoftware: CFString = "Software"
/// TIFF: when the image was made, a string "yyyy:MM:dd HH:mm:ss" in local time.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyTIFFDateTime: CFString = "DateTime"
/// TIFF: the EXIF orientation of the image, a number.
///
/// Linux addition: ImageIO's constant on Apple platforms, provided by OpenAVFoundation here.
public let kCGImagePropertyTIFFOrientation: CFString = "Orientation"
