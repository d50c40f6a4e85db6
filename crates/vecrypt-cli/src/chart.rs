//! `vecrypt speed --svg FILE`: the measured rows as grouped bar charts, one panel per
//! algorithm, one group per mode and direction, one bar per backend or peer.

use plotters::coord::Shift;
use plotters::prelude::*;
use vecrypt_speed::SpeedRow;

use crate::Failure;

const WIDTH: u32 = 1400;
const PANEL_HEIGHT: u32 = 340;
const COLUMNS: usize = 2;

/// One panel: a title, the group names, and per series (backend) one value per group.
struct Panel {
    title: String,
    unit: &'static str,
    groups: Vec<String>,
    series: Vec<(String, Vec<Option<f64>>)>,
}

fn series_name(r: &SpeedRow) -> String {
    if r.peer {
        format!("peer: {}", r.backend)
    } else {
        r.backend.clone()
    }
}

/// Throughput panels (the long message of each task, one key) and operation panels.
fn panels(rows: &[SpeedRow]) -> Vec<Panel> {
    let mut algorithms: Vec<(&str, bool)> = Vec::new();
    for r in rows {
        let key = (r.algorithm.as_str(), r.bytes == 0);
        if !algorithms.contains(&key) {
            algorithms.push(key);
        }
    }
    // Throughput rows: the largest size of each algorithm, one key.
    let mut out = Vec::new();
    for (alg, ops) in algorithms {
        let chosen: Vec<&SpeedRow> = if ops {
            rows.iter()
                .filter(|r| r.algorithm == alg && r.bytes == 0)
                .collect()
        } else {
            let of_alg = rows.iter().filter(|r| r.algorithm == alg && r.bytes > 0);
            let long = of_alg
                .clone()
                .filter(|r| r.message != "short" && r.keys == 1);
            let mut chosen: Vec<&SpeedRow> = long.collect();
            if chosen.is_empty() {
                chosen = of_alg.filter(|r| r.keys == 1).collect();
            }
            chosen
        };
        if chosen.is_empty() {
            continue;
        }
        let group_of = |r: &SpeedRow| {
            if ops {
                format!("{} {}", r.mode, r.direction)
            } else {
                format!("{} {}", r.mode, short_direction(r.direction))
            }
        };
        let mut groups: Vec<String> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for r in &chosen {
            let g = group_of(r);
            if !groups.contains(&g) {
                groups.push(g);
            }
            let s = series_name(r);
            if !names.contains(&s) {
                names.push(s);
            }
        }
        let series = names
            .into_iter()
            .map(|s| {
                let values = groups
                    .iter()
                    .map(|g| {
                        chosen
                            .iter()
                            .filter(|r| series_name(r) == s && group_of(r) == *g)
                            .map(|r| {
                                if ops {
                                    r.ops_per_s
                                } else {
                                    r.mb_per_s.unwrap_or(0.0)
                                }
                            })
                            .reduce(f64::max)
                    })
                    .collect();
                (s, values)
            })
            .collect();
        let sizes: Vec<String> = {
            let mut v: Vec<usize> = chosen.iter().map(|r| r.bytes).collect();
            v.sort_unstable();
            v.dedup();
            v.iter().map(|b| human_bytes(*b)).collect()
        };
        out.push(Panel {
            title: if ops {
                format!("{alg}: operations per second")
            } else {
                format!("{alg}: MB/s, {} per call, one key", sizes.join(" / "))
            },
            unit: if ops { "ops/s" } else { "MB/s" },
            groups,
            series,
        });
    }
    out
}

fn short_direction(d: &str) -> &str {
    match d {
        "encrypt" => "enc",
        "decrypt" => "dec",
        other => other,
    }
}

fn human_bytes(b: usize) -> String {
    if b >= 1024 && b.is_multiple_of(1024) {
        format!("{} KiB", b / 1024)
    } else {
        format!("{b} B")
    }
}

/// A fixed colour per series name, the same in every panel.
fn colour(index: usize) -> RGBColor {
    const PALETTE: [RGBColor; 16] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(0, 0, 128),
        RGBColor(128, 0, 0),
        RGBColor(0, 100, 0),
        RGBColor(255, 215, 0),
        RGBColor(70, 240, 240),
        RGBColor(0, 0, 0),
    ];
    PALETTE[index % PALETTE.len()]
}

fn draw_panel(
    area: &DrawingArea<SVGBackend, Shift>,
    panel: &Panel,
    all_series: &[String],
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<std::io::Error>| x.to_string();
    let max = panel
        .series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .copied()
        .fold(1.0f64, f64::max);
    let min = panel
        .series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .copied()
        .filter(|v| *v > 0.0)
        .fold(max, f64::min);
    let low = 10f64.powf((min / 2.0).max(1e-3).log10().floor());
    let n = panel.groups.len();
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 18))
        .margin(8)
        .x_label_area_size(50)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..n as f64, (low..max * 3.0).log_scale())
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_desc(panel.unit)
        .y_label_style(("sans-serif", 13))
        .y_labels(8)
        .y_label_formatter(&|v| {
            if *v >= 1e6 {
                format!("{:.0}M", v / 1e6)
            } else if *v >= 1e3 {
                format!("{:.0}k", v / 1e3)
            } else {
                format!("{v:.0}")
            }
        })
        .draw()
        .map_err(e)?;
    let k = panel.series.len().max(1) as f64;
    let width = 0.8 / k;
    for (si, (name, values)) in panel.series.iter().enumerate() {
        let ci = all_series.iter().position(|s| s == name).unwrap_or(si);
        let c = colour(ci);
        let bars = values.iter().enumerate().filter_map(|(gi, v)| {
            let v = (*v)?;
            let x0 = gi as f64 + 0.1 + si as f64 * width;
            Some(Rectangle::new(
                [(x0, low), (x0 + width * 0.92, v.max(low))],
                c.filled(),
            ))
        });
        chart.draw_series(bars).map_err(e)?;
    }
    let label_style =
        ("sans-serif", 13)
            .into_font()
            .color(&BLACK)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            ));
    chart
        .draw_series(panel.groups.iter().enumerate().flat_map(|(gi, g)| {
            // One word per line (`ctr` / `acpkm` / `enc`): narrow enough for 16 groups.
            let style = label_style.clone();
            g.split([' ', '-']).enumerate().map(move |(i, w)| {
                EmptyElement::at((gi as f64 + 0.5, low))
                    + Text::new(w.to_string(), (0, 5 + 14 * i as i32), style.clone())
            })
        }))
        .map_err(e)?;
    Ok(())
}

/// The chart of `rows` as SVG text, titled with the CPU's name.
pub fn svg(rows: &[SpeedRow], cpu: &str) -> Result<String, Failure> {
    let panels = panels(rows);
    let mut all_series: Vec<String> = Vec::new();
    for p in &panels {
        for (s, _) in &p.series {
            if !all_series.contains(s) {
                all_series.push(s.clone());
            }
        }
    }
    let grid_rows = panels.len().div_ceil(COLUMNS).max(1);
    let per_line = 8;
    let legend_height = 26 * all_series.len().div_ceil(per_line).max(1) as u32 + 8;
    let height = 50 + legend_height + PANEL_HEIGHT * grid_rows as u32;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
        let e = |x: DrawingAreaErrorKind<std::io::Error>| Failure::usage(format!("chart: {x}"));
        root.fill(&WHITE).map_err(e)?;
        let root = root
            .titled(
                &format!("vecrypt speed on {cpu} (log scale)"),
                ("sans-serif", 24),
            )
            .map_err(e)?;
        let (legend, body) = root.split_vertically(legend_height);
        draw_legend(&legend, &all_series, per_line).map_err(e)?;
        let cells = body.split_evenly((grid_rows, COLUMNS));
        for (panel, area) in panels.iter().zip(cells.iter()) {
            draw_panel(area, panel, &all_series)
                .map_err(|m| Failure::usage(format!("chart: {m}")))?;
        }
        root.present().map_err(e)?;
    }
    Ok(text)
}

/// One legend for all panels: a colour per backend or peer, the same in every panel.
fn draw_legend(
    area: &DrawingArea<SVGBackend, Shift>,
    names: &[String],
    per_line: usize,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let cell = (WIDTH as i32 - 40) / per_line as i32;
    for (i, name) in names.iter().enumerate() {
        let x = 20 + (i % per_line) as i32 * cell;
        let y = 6 + (i / per_line) as i32 * 26;
        area.draw(&Rectangle::new(
            [(x, y + 2), (x + 16, y + 16)],
            colour(i).filled(),
        ))?;
        area.draw(&Text::new(
            name.as_str(),
            (x + 22, y + 2),
            ("sans-serif", 14).into_font().color(&BLACK),
        ))?;
    }
    Ok(())
}
