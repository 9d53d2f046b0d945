//! Plots as SVG (plotters' SVG backend: text is written as `<text>`, so no fonts or C
//! libraries are needed): variables over time with the events marked (`rtc run --plot`,
//! `rtc plot`), and a method's stability region with the model's hλ and the root-error curves
//! over the step (`rtc analyze --errors --plot`).

use crate::pipeline::Curves;
use plotters::prelude::*;

/// Points per series at most: longer series are reduced to the minimum and maximum of each
/// of half as many buckets, in time order, so peaks survive.
const MAX_POINTS: usize = 4000;

/// Drawing a plot failed (the SVG backend's error, as it describes itself).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("drawing the plot failed: {0}")]
pub struct PlotError(String);

fn err<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

/// The (x, y) points of one series, reduced to at most [`MAX_POINTS`].
fn reduce(x: &[f64], y: &[f64]) -> Vec<(f64, f64)> {
    let pts: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(|(&a, &b)| (a, b))
        .collect();
    if pts.len() <= MAX_POINTS {
        return pts;
    }
    let buckets = MAX_POINTS / 2;
    let per = pts.len().div_ceil(buckets);
    let mut out = Vec::with_capacity(MAX_POINTS);
    for chunk in pts.chunks(per) {
        let lo = chunk.iter().min_by(|a, b| a.1.total_cmp(&b.1)).copied();
        let hi = chunk.iter().max_by(|a, b| a.1.total_cmp(&b.1)).copied();
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo.0 <= hi.0 {
                out.extend([lo, hi]);
            } else {
                out.extend([hi, lo]);
            }
        }
    }
    out
}

/// The range of `v` widened a little (and made non-empty).
fn range(v: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in v.filter(|x| x.is_finite()) {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo <= 1e-12 * hi.abs().max(lo.abs()).max(1e-300) {
        let pad = if hi == 0.0 { 1.0 } else { 0.1 * hi.abs() };
        return (lo - pad, hi + pad);
    }
    let pad = 0.05 * (hi - lo);
    (lo - pad, hi + pad)
}

/// Variables over time as SVG text: one line per series, a legend with their names, events as
/// vertical lines.
pub fn time_series(
    title: &str,
    time: &[f64],
    series: &[(String, Vec<f64>)],
    events: &[f64],
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 600)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (x0, x1) = range(time.iter().copied());
        let (y0, y1) = range(series.iter().flat_map(|(_, v)| v.iter().copied()));
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time [s]")
            .draw()
            .map_err(err)?;
        for &te in events {
            chart
                .draw_series(LineSeries::new(
                    [(te, y0), (te, y1)],
                    RGBColor(200, 200, 200).stroke_width(1),
                ))
                .map_err(err)?;
        }
        for (k, (name, v)) in series.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            chart
                .draw_series(LineSeries::new(reduce(time, v), color.stroke_width(2)))
                .map_err(err)?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        if !events.is_empty() {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    Vec::<(f64, f64)>::new(),
                    RGBColor(200, 200, 200),
                )))
                .map_err(err)?
                .label(format!("events ({})", events.len()))
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], RGBColor(200, 200, 200))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The stability region with the model's hλ (left) and the root errors over the step (right).
pub fn accuracy(method: &str, h: f64, p: &Curves) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1200, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (left, right) = root.split_horizontally(560);
        // Left: the q plane, wide enough for the boundary and the points.
        let xs = p
            .boundary
            .iter()
            .flat_map(|s| s.iter().map(|q| q.0))
            .chain(p.h_lambda.iter().map(|q| q.0))
            .chain([0.0]);
        let ys = p
            .boundary
            .iter()
            .flat_map(|s| s.iter().map(|q| q.1))
            .chain(p.h_lambda.iter().map(|q| q.1))
            .chain([0.0]);
        let (x0, x1) = range(xs);
        let (y0, y1) = range(ys);
        let mut chart = ChartBuilder::on(&left)
            .caption(
                format!("{method}: stability boundary |R(hλ)| = 1, model hλ at h = {h}"),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("Re hλ")
            .y_desc("Im hλ")
            .draw()
            .map_err(err)?;
        let blue = RGBColor(30, 90, 200);
        let mut first = true;
        for seg in &p.boundary {
            let s = chart
                .draw_series(LineSeries::new(seg.to_vec(), blue.stroke_width(2)))
                .map_err(err)?;
            if first {
                s.label("stability boundary")
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], blue));
                first = false;
            }
        }
        let red = RGBColor(210, 40, 40);
        chart
            .draw_series(
                p.h_lambda
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 4, red.filled())),
            )
            .map_err(err)?
            .label("model hλ")
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, red.filled()));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
        // Right: e_|λ| against h, log-log.
        let (h0, h1) = (
            p.steps.first().copied().unwrap_or(1e-6),
            p.steps.last().copied().unwrap_or(1.0),
        );
        let vals = p
            .curves
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .filter(|x| x.is_finite() && *x > 0.0);
        let (mut e0, mut e1) = (f64::INFINITY, 0.0f64);
        for v in vals {
            e0 = e0.min(v);
            e1 = e1.max(v);
        }
        if !e0.is_finite() {
            (e0, e1) = (1e-6, 1.0);
        }
        let e1 = e1.min(10.0).max(e0 * 10.0);
        let mut chart = ChartBuilder::on(&right)
            .caption(
                "root error e_|λ| = |λ* − λ|/|λ| over the step",
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d((h0..h1).log_scale(), (e0..e1).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("h [s]")
            .y_desc("e_|λ|")
            .x_label_formatter(&|v| format!("{v:.0e}"))
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                [(h, e0), (h, e1)],
                RGBColor(60, 60, 60).stroke_width(2),
            ))
            .map_err(err)?
            .label(format!("h = {h}"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RGBColor(60, 60, 60)));
        for (k, (name, v)) in p.curves.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let pts: Vec<(f64, f64)> = p
                .steps
                .iter()
                .zip(v)
                .filter(|(_, e)| e.is_finite() && **e > 0.0)
                .map(|(&h, &e)| (h, e.min(e1)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map_err(err)?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
