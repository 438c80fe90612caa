//! A thin pixel-coordinate layer over plotters' SVG backend. The charts lay themselves out
//! (categories, stacked bars, lanes are not plotters' continuous coordinate systems), so all
//! they need is rectangles, lines and text at positions they computed; this keeps every
//! plotters type and error in one file.

use plotters::coord::Shift;
use plotters::element::{DashedPathElement, PathElement, Rectangle, Text};
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{
    Color, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, ShapeStyle, TextStyle, WHITE,
};

use super::PlotError;

/// Horizontal anchor of a text: where `x` is along the (possibly rotated) text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

/// How a text is set.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Font {
    pub px: f64,
    pub bold: bool,
    pub italic: bool,
    /// Reads bottom to top (rotated 90° counter-clockwise).
    pub vertical: bool,
    pub color: RGBColor,
}

impl Font {
    pub fn new(px: f64, color: RGBColor) -> Font {
        Font {
            px,
            bold: false,
            italic: false,
            vertical: false,
            color,
        }
    }
    pub fn bold(self) -> Font {
        Font { bold: true, ..self }
    }
    pub fn italic(self) -> Font {
        Font {
            italic: true,
            ..self
        }
    }
    pub fn vertical(self) -> Font {
        Font {
            vertical: true,
            ..self
        }
    }
}

pub(crate) struct Canvas<'a> {
    area: DrawingArea<SVGBackend<'a>, Shift>,
}

fn draw_err(e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw(e.to_string())
}

fn px(v: f64) -> i32 {
    v.round() as i32
}

/// Draws on a white canvas of `size` pixels and returns the SVG document.
pub(crate) fn render(
    size: (u32, u32),
    draw: impl FnOnce(&Canvas) -> Result<(), PlotError>,
) -> Result<String, PlotError> {
    let mut buf = String::new();
    {
        let canvas = Canvas {
            area: SVGBackend::with_string(&mut buf, size).into_drawing_area(),
        };
        canvas.area.fill(&WHITE).map_err(draw_err)?;
        draw(&canvas)?;
        canvas.area.present().map_err(draw_err)?;
    }
    Ok(buf)
}

impl Canvas<'_> {
    /// A filled rectangle between two corners (any order); nothing when it rounds to no area.
    pub fn fill(
        &self,
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
        color: RGBColor,
    ) -> Result<(), PlotError> {
        let (a, b) = (px(x0.min(x1)), px(x0.max(x1)));
        let (c, d) = (px(y0.min(y1)), px(y0.max(y1)));
        if a == b || c == d {
            return Ok(());
        }
        self.area
            .draw(&Rectangle::new([(a, c), (b, d)], color.filled()))
            .map_err(draw_err)
    }

    /// A rectangle's outline in `color` at `alpha` opacity.
    pub fn outline(
        &self,
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
        color: RGBColor,
        alpha: f64,
    ) -> Result<(), PlotError> {
        let style = ShapeStyle {
            color: color.mix(alpha),
            filled: false,
            stroke_width: 1,
        };
        self.area
            .draw(&Rectangle::new([(px(x0), px(y0)), (px(x1), px(y1))], style))
            .map_err(draw_err)
    }

    pub fn line(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        color: RGBColor,
        width: u32,
    ) -> Result<(), PlotError> {
        let style = ShapeStyle {
            color: color.to_rgba(),
            filled: false,
            stroke_width: width,
        };
        self.area
            .draw(&PathElement::new(
                vec![(px(from.0), px(from.1)), (px(to.0), px(to.1))],
                style,
            ))
            .map_err(draw_err)
    }

    pub fn dashed(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        color: RGBColor,
        width: u32,
    ) -> Result<(), PlotError> {
        let style = ShapeStyle {
            color: color.to_rgba(),
            filled: false,
            stroke_width: width,
        };
        let points = vec![(px(from.0), px(from.1)), (px(to.0), px(to.1))];
        self.area
            .draw(&DashedPathElement::new(points, 6, 4, style))
            .map_err(draw_err)
    }

    /// `s` with its baseline box vertically centred on `y`; `anchor` says where `x` falls
    /// along the text (for vertical text: `End` is the text's top end).
    pub fn text(
        &self,
        s: &str,
        x: f64,
        y: f64,
        anchor: Anchor,
        font: Font,
    ) -> Result<(), PlotError> {
        let style = if font.bold {
            FontStyle::Bold
        } else if font.italic {
            FontStyle::Italic
        } else {
            FontStyle::Normal
        };
        // plotters' SVG backend writes font-size = size / 1.24.
        let mut desc = FontDesc::new(FontFamily::SansSerif, font.px * 1.24, style);
        if font.vertical {
            desc = desc.transform(FontTransform::Rotate270);
        }
        let h = match anchor {
            Anchor::Start => HPos::Left,
            Anchor::Middle => HPos::Center,
            Anchor::End => HPos::Right,
        };
        let style = TextStyle {
            font: desc,
            color: font.color.to_backend_color(),
            pos: Pos::new(h, VPos::Center),
        };
        self.area
            .draw(&Text::new(s, (px(x), px(y)), style))
            .map_err(draw_err)
    }
}
