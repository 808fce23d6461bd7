//! The pencil sketch of an uploaded photo (`arcade_sketch`, what `arcade
//! sketch` does), with the page's light settings, answered as a PNG.

use crate::error::{ApiError, ApiQuery, read_upload};
use crate::server::AppRef;
use arcade_sketch::Light;
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use image::{ImageFormat, ImageReader};
use serde::Deserialize;
use std::io::Cursor;

/// Largest upload: 8 MiB.
pub const MAX_IMAGE_BYTES: usize = 8 << 20;
/// Largest width or height: 4,096 pixels (16 megapixels).
pub const MAX_SIDE: u32 = 4096;
/// Most memory the decoder may take for one image.
pub const MAX_DECODE_BYTES: u64 = 256 << 20;

pub fn routes() -> Router<AppRef> {
    Router::new().route("/", post(sketch_route))
}

/// Light settings; missing ones take `arcade sketch`'s defaults.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SketchQuery {
    pub depth: Option<f64>,
    pub elevation: Option<f64>,
    pub azimuth: Option<f64>,
}

impl SketchQuery {
    fn light(&self) -> Result<Light, ApiError> {
        let d = Light::default();
        let light = Light {
            depth: self.depth.unwrap_or(d.depth),
            elevation: self.elevation.unwrap_or(d.elevation),
            azimuth: self.azimuth.unwrap_or(d.azimuth),
        };
        light
            .check()
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        Ok(light)
    }
}

/// Decodes a PNG or JPEG within the page's limits.
fn decode(bytes: &[u8]) -> Result<image::DynamicImage, ApiError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| ApiError::unprocessable(format!("cannot read the image: {e}")))?;
    match reader.format() {
        Some(ImageFormat::Png | ImageFormat::Jpeg) => {}
        _ => {
            return Err(ApiError::Unsupported(
                "the upload is not a PNG or JPEG image".into(),
            ));
        }
    }
    let (w, h) = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .and_then(|r| r.into_dimensions().map_err(std::io::Error::other))
        .map_err(|e| ApiError::unprocessable(format!("cannot read the image: {e}")))?;
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(ApiError::Unprocessable(format!(
            "the image is {w}×{h}; the page takes at most {MAX_SIDE}×{MAX_SIDE} (use `arcade sketch` for larger)"
        )));
    }
    if w == 0 || h == 0 {
        return Err(ApiError::Unprocessable(format!(
            "the image has no pixels ({w}×{h})"
        )));
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    // The library's decode: it also refuses a JPEG cut off in its data,
    // which the decoder fills with grey and calls whole.
    drop(reader);
    arcade_sketch::decode_within(bytes, "upload", limits).map_err(|e| match e {
        arcade_sketch::SketchError::Decode { message, .. } => {
            ApiError::Unprocessable(format!("cannot read the image: {message}"))
        }
        e => ApiError::Unprocessable(e.to_string()),
    })
}

async fn sketch_route(
    State(app): State<AppRef>,
    ApiQuery(q): ApiQuery<SketchQuery>,
    body: Body,
) -> Result<Response, ApiError> {
    let light = q.light()?;
    let bytes = read_upload(body, MAX_IMAGE_BYTES).await?;
    if bytes.is_empty() {
        return Err(ApiError::BadRequest("no image in the request body".into()));
    }
    let (png, (w, h)) = app
        .compute(move || {
            let image = decode(&bytes)?;
            let out = arcade_sketch::sketch(&image, &light);
            let dims = out.dimensions();
            let mut png = Vec::new();
            out.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
                .map_err(|e| ApiError::unprocessable(format!("cannot encode the sketch: {e}")))?;
            Ok((png, dims))
        })
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/png".to_string()),
            (
                header::HeaderName::from_static("x-sketch-size"),
                format!("{w}x{h}"),
            ),
        ],
        png,
    )
        .into_response())
}
