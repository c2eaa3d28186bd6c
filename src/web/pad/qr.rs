//! QR codes of pad links, drawn as SVG on the server: a phone's camera
//! opens a board's pad straight from the review page or a printed sheet.

use qrcode::QrCode;
use qrcode::render::svg;

/// An SVG of `text` as a QR code, or an empty string if it does not fit
/// one (a pad link always does).
pub fn svg(text: &str) -> String {
    match QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<svg::Color>()
            .min_dimensions(160, 160)
            .quiet_zone(true)
            .build(),
        Err(_) => String::new(),
    }
}
