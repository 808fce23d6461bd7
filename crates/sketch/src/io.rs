//! Encoded images in and out: decoding with size limits, encoding in the
//! format an extension names, and the errors a caller can tell apart (the
//! user's input versus a failed write).

use crate::light::LightError;
use crate::{Light, SketchReport, into_grey, pencil_sketch};
use arcade_core::checkpoint::{CheckpointError, same_file, write_atomic};
use image::codecs::pnm::{PnmEncoder, PnmSubtype, SampleEncoding};
use image::{DynamicImage, ExtendedColorType, GrayImage, ImageEncoder, ImageFormat, ImageReader};
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Largest width or height decoded: 16,384 pixels (a 16k × 16k image is
/// 268 megapixels, far beyond a photo).
pub const MAX_SIDE: u32 = 16_384;
/// Most memory the decoder may allocate for one image: 1 GiB.
pub const MAX_ALLOC_BYTES: u64 = 1 << 30;
/// Largest encoded file read: 256 MiB.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The decoder limits every input gets.
pub fn limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC_BYTES);
    limits
}

/// Why a sketch could not be made or saved. Messages are one line and name
/// the file (or "image" for bytes from memory).
#[derive(Debug, thiserror::Error)]
pub enum SketchError {
    /// The file could not be read (missing, too large, a directory).
    #[error("{message}")]
    Read { name: String, message: String },
    #[error("cannot read image {name}: {message}")]
    Decode { name: String, message: String },
    #[error("image {name} has no pixels ({width}×{height})")]
    Empty {
        name: String,
        width: u32,
        height: u32,
    },
    #[error("{name}: {source}")]
    Light {
        name: String,
        #[source]
        source: LightError,
    },
    #[error(
        "cannot write {}: unsupported output extension (use .png, .jpg, .bmp, .gif, .tif, .webp, .pgm or .pnm)",
        path.display()
    )]
    UnsupportedOutput { path: PathBuf },
    #[error("{} is the input too: writing the sketch there would destroy the photo (choose another output)", path.display())]
    SameFile { path: PathBuf },
    #[error("cannot encode the sketch as {format:?}: {message}")]
    Encode {
        format: ImageFormat,
        message: String,
    },
    #[error("cannot write image {}: {}", path.display(), arcade_core::text::io_reason(source))]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl SketchError {
    /// Whether the caller's input is at fault (an unreadable, empty or too
    /// large image, an unknown extension, bad settings) rather than the
    /// system (a failed encode or write).
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, SketchError::Write { .. } | SketchError::Encode { .. })
    }
}

/// A decoder or encoder message on one line (some span several).
fn one_line(e: &image::ImageError) -> String {
    e.to_string()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The output format for `path`'s extension, if the build can write it;
/// PNG for `-` (standard output), which has no extension to name one.
pub fn output_format(path: &Path) -> Result<ImageFormat, SketchError> {
    if is_stdout(path) {
        return Ok(ImageFormat::Png);
    }
    let unsupported = || SketchError::UnsupportedOutput {
        path: path.to_path_buf(),
    };
    let format = ImageFormat::from_path(path).map_err(|_| unsupported())?;
    // The PNM family's grey member is PGM (P5); a .ppm (colour), .pbm
    // (black and white) or .pam file would hold something else.
    let grey_pnm = || {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        ["pgm", "pnm"].contains(&ext.to_ascii_lowercase().as_str())
    };
    if format.writing_enabled() && (format != ImageFormat::Pnm || grey_pnm()) {
        Ok(format)
    } else {
        Err(unsupported())
    }
}

/// Whether a JPEG's data runs to its end-of-image marker after its last
/// scan. The decoder fills a cut-off scan with grey and says nothing (a
/// half-copied photo became a sketch blank below the cut); markers cannot
/// occur inside a scan's data (an `FF` there is followed by `00` or a
/// restart marker), and a thumbnail's own end marker comes before the scan.
fn jpeg_is_whole(bytes: &[u8]) -> bool {
    let last = |marker: u8| bytes.windows(2).rposition(|w| w == [0xFF, marker]);
    match (last(0xDA), last(0xD9)) {
        (Some(scan), Some(end)) => end > scan,
        _ => false,
    }
}

/// Decodes an encoded image (format guessed from its bytes) within
/// [`limits`]; `name` labels errors. A zero-size image is an error.
pub fn decode(bytes: &[u8], name: &str) -> Result<DynamicImage, SketchError> {
    decode_within(bytes, name, limits())
}

/// [`decode`] within other limits (a web page's, tighter than the CLI's).
pub fn decode_within(
    bytes: &[u8],
    name: &str,
    limits: image::Limits,
) -> Result<DynamicImage, SketchError> {
    let (side, alloc) = (limits.max_image_width, limits.max_alloc);
    let decode_err = |e: image::ImageError| SketchError::Decode {
        name: name.to_string(),
        message: limit_message(&e, side, alloc).unwrap_or_else(|| one_line(&e)),
    };
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| decode_err(e.into()))?;
    reader.limits(limits);
    if reader.format() == Some(ImageFormat::Jpeg) && !jpeg_is_whole(bytes) {
        return Err(SketchError::Decode {
            name: name.to_string(),
            message: "the JPEG ends before its image data does (a cut-off file?)".into(),
        });
    }
    let image = reader.decode().map_err(decode_err)?;
    if image.width() == 0 || image.height() == 0 {
        return Err(SketchError::Empty {
            name: name.to_string(),
            width: image.width(),
            height: image.height(),
        });
    }
    Ok(image)
}

/// What a decoder limit refused, with the limit ("Image size exceeds
/// limit" said neither).
fn limit_message(e: &image::ImageError, side: Option<u32>, alloc: Option<u64>) -> Option<String> {
    let image::ImageError::Limits(limit) = e else {
        return None;
    };
    Some(match (limit.kind(), side, alloc) {
        (image::error::LimitErrorKind::DimensionError, Some(side), _) => {
            format!("the image is wider or taller than {side} pixels, the most accepted")
        }
        (image::error::LimitErrorKind::InsufficientMemory, _, Some(alloc)) => format!(
            "decoding it needs more than {} of memory, the most accepted",
            arcade_core::text::bytes(alloc)
        ),
        _ => return None,
    })
}

/// Encodes a sketch in `format`. GIF has no grey colour type, so the sketch
/// goes out as RGBA there (grey pixels, fully opaque); PNM goes out as PGM.
pub fn encode(image: &GrayImage, format: ImageFormat) -> Result<Vec<u8>, SketchError> {
    let mut out = Cursor::new(Vec::new());
    let written = match format {
        ImageFormat::Gif => DynamicImage::ImageLuma8(image.clone())
            .to_rgba8()
            .write_to(&mut out, format),
        // PGM (P5), which every PNM reader knows; the encoder's default
        // for grey is PAM (P7).
        ImageFormat::Pnm => PnmEncoder::new(&mut out)
            .with_subtype(PnmSubtype::Graymap(SampleEncoding::Binary))
            .write_image(
                image.as_raw(),
                image.width(),
                image.height(),
                ExtendedColorType::L8,
            ),
        _ => image.write_to(&mut out, format),
    };
    written.map_err(|e| SketchError::Encode {
        format,
        message: one_line(&e),
    })?;
    Ok(out.into_inner())
}

fn check_light(light: &Light, name: &str) -> Result<(), SketchError> {
    light.check().map_err(|source| SketchError::Light {
        name: name.to_string(),
        source,
    })
}

/// The sketch of an encoded image, encoded in `format`, with its size: what
/// an upload handler needs. `name` labels errors.
pub fn sketch_bytes(
    bytes: &[u8],
    name: &str,
    format: ImageFormat,
    light: &Light,
) -> Result<(Vec<u8>, (u32, u32)), SketchError> {
    check_light(light, "settings")?;
    // One image at a time: the decoded one is gone before the sketch is
    // made, so a 1 GiB decode does not add a sketch on top.
    let grey = into_grey(decode(bytes, name)?);
    let out = pencil_sketch(&grey, light);
    drop(grey);
    Ok((encode(&out, format)?, out.dimensions()))
}

/// Whether `path` is `-`, standard output.
fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

/// Writes `encoded` to `output`: a file whole or not at all (a failed write
/// leaves an older file as it was), or standard output for `-`.
fn write_output(output: &Path, encoded: &[u8]) -> Result<(), SketchError> {
    let failed = |source| SketchError::Write {
        path: output.to_path_buf(),
        source,
    };
    if is_stdout(output) {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(encoded)
            .and_then(|()| out.flush())
            .map_err(failed);
    }
    write_atomic(output, encoded).map_err(|e| {
        failed(match e {
            CheckpointError::Write { source, .. } => source,
            other => std::io::Error::other(other.to_string()),
        })
    })
}

/// Reads `input` (`-`: standard input; any format the build decodes, at most
/// [`MAX_FILE_BYTES`]), sketches it and writes `output` in the format its
/// extension names (`-`: PNG on standard output).
pub fn sketch_file(
    input: &Path,
    output: &Path,
    light: &Light,
) -> Result<SketchReport, SketchError> {
    let start = Instant::now();
    // Check the output name before the (possibly slow) decode.
    let format = output_format(output)?;
    let name = arcade_core::input::display_name(input);
    if input != Path::new("-") && !is_stdout(output) && same_file(input, output) {
        return Err(SketchError::SameFile {
            path: output.to_path_buf(),
        });
    }
    let bytes =
        arcade_core::input::read_bytes(input, MAX_FILE_BYTES).map_err(|e| SketchError::Read {
            name: name.clone(),
            message: e.to_string(),
        })?;
    let (encoded, (width, height)) = sketch_bytes(&bytes, &name, format, light)?;
    drop(bytes);
    write_output(output, &encoded)?;
    Ok(SketchReport {
        input: name,
        output: if is_stdout(output) {
            "standard output".to_string()
        } else {
            output.display().to_string()
        },
        width,
        height,
        depth: light.depth,
        elevation: light.elevation,
        azimuth: light.azimuth,
        seconds: start.elapsed().as_secs_f64(),
    })
}
