//! The evaluation graph of a reviewed game as a self-contained SVG picture; see
//! [`eval_graph_svg`].
//!
//! The graph knows nothing of the search: it draws what it is given, Black's expected score
//! after each move (a fraction in `[0, 1]`) and the moves judged, so that any front end can
//! draw a review (`kshogi review --svg`) the same way.

use kshogi_core::Color;
use std::fmt::Write as _;

/// Width of the picture, in px.
pub const GRAPH_WIDTH: f64 = 760.0;
/// Height of the picture, in px.
pub const GRAPH_HEIGHT: f64 = 340.0;
/// The plot area (where the curve is): left edge, in px.
pub const PLOT_LEFT: f64 = 70.0;
/// The plot area: right edge, in px.
pub const PLOT_RIGHT: f64 = GRAPH_WIDTH - 20.0;
/// The plot area: top edge (an expected score of 100% for Black), in px.
pub const PLOT_TOP: f64 = 44.0;
/// The plot area: bottom edge (an expected score of 0% for Black), in px.
pub const PLOT_BOTTOM: f64 = GRAPH_HEIGHT - 78.0;
/// Radius of a mark on a judged move, in px.
pub const MARK_RADIUS: f64 = 5.5;

/// Black's side of the graph (below the curve): sente's dark colour.
const BLACK_FILL: &str = "#3b3b3b";
/// White's side of the graph (above the curve): gote's light colour.
const WHITE_FILL: &str = "#f3efe6";
const CURVE: &str = "#8a6d3b";
const GRID: &str = "#b9b3a6";
const INK: &str = "#111111";
const BACKGROUND: &str = "#ffffff";
const FONTS: &str = "'DejaVu Sans','Helvetica','Arial',sans-serif";

/// How bad a judged move is, for its mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GraphMarkKind {
    /// An inaccuracy.
    Inaccuracy,
    /// A mistake.
    Mistake,
    /// A blunder.
    Blunder,
}

impl GraphMarkKind {
    /// `inaccuracy`, `mistake` or `blunder` (the mark's class and legend).
    pub fn word(self) -> &'static str {
        match self {
            GraphMarkKind::Inaccuracy => "inaccuracy",
            GraphMarkKind::Mistake => "mistake",
            GraphMarkKind::Blunder => "blunder",
        }
    }

    /// The fill of its mark: colours told apart with any colour vision (Okabe and Ito).
    pub fn colour(self) -> &'static str {
        match self {
            GraphMarkKind::Inaccuracy => "#56b4e9",
            GraphMarkKind::Mistake => "#e69f00",
            GraphMarkKind::Blunder => "#d55e00",
        }
    }
}

/// A judged move on the graph.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GraphMark {
    /// The point it is drawn at: the index in [`EvalGraph::points`] of the position after
    /// the move (move `k` of the game, counting from 1, is index `k`).
    pub index: usize,
    /// The judgement.
    pub kind: GraphMarkKind,
    /// Who played the move (the mark's outline: black for Black, white for White).
    pub mover: Color,
}

/// What the graph shows.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalGraph {
    /// The title above the plot (plain text; escaped when written).
    pub title: String,
    /// The number of moves played before the first point (0 for a game from the start; a
    /// record from a later position numbers its moves on from there): the x axis shows
    /// `first_move + index`, the number of the move that led to the point.
    pub first_move: u64,
    /// Black's expected score at each position of the game, from the start position (index
    /// 0) to the position after the last move; `None` where the position was not analysed
    /// (the curve has a gap there). Values are clamped to `[0, 1]`.
    pub points: Vec<Option<f64>>,
    /// The judged moves.
    pub marks: Vec<GraphMark>,
}

/// A number for an attribute: at most two decimals, no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Text for XML content and attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The x coordinate of point `index` of a graph with `count` points: the first at
/// [`PLOT_LEFT`], the last at [`PLOT_RIGHT`] (a single point in the middle).
pub fn graph_x(index: usize, count: usize) -> f64 {
    if count < 2 {
        return (PLOT_LEFT + PLOT_RIGHT) / 2.0;
    }
    PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * index as f64 / (count - 1) as f64
}

/// The y coordinate of Black's expected score `e` (clamped to `[0, 1]`): 1 at
/// [`PLOT_TOP`], 0 at [`PLOT_BOTTOM`].
pub fn graph_y(e: f64) -> f64 {
    let e = if e.is_nan() { 0.5 } else { e.clamp(0.0, 1.0) };
    PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * e
}

/// The step between labelled moves on the x axis: 1, 2, 5, 10, 20, 50, ... so that at most
/// about 12 labels fit.
fn x_step(moves: usize) -> usize {
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if moves / (step * m) <= 12 {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// The runs of consecutive analysed points, as `(index, y)` lists.
fn segments(points: &[Option<f64>]) -> Vec<Vec<(usize, f64)>> {
    let mut out: Vec<Vec<(usize, f64)>> = Vec::new();
    let mut current = Vec::new();
    for (i, p) in points.iter().enumerate() {
        match p {
            Some(e) => current.push((i, graph_y(*e))),
            None => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The SVG picture of the evaluation graph: [`GRAPH_WIDTH`] x [`GRAPH_HEIGHT`] px; the plot
/// area ([`PLOT_LEFT`]..[`PLOT_RIGHT`], [`PLOT_TOP`]..[`PLOT_BOTTOM`]) in White's light
/// colour, Black's expected score as a curve (`<polyline class="curve">`, one per run of
/// analysed positions) with Black's dark colour below it, so that the dark area is Black's
/// share; a dashed line at 50%, the y axis labelled 0% to 100% ("expected score for
/// Black"), the x axis labelled with move numbers; each judged move a circle
/// (`<circle class="mark <kind>" data-move="<move number>">`) on the point after the move,
/// filled by its kind and outlined in the mover's colour; a legend and the title.
/// Everything is text and shapes, in Latin fonts: no font file or image is needed.
pub fn eval_graph_svg(graph: &EvalGraph) -> String {
    let (w, h) = (GRAPH_WIDTH, GRAPH_HEIGHT);
    let n = graph.points.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" \
         viewBox=\"0 0 {} {}\" font-family=\"{FONTS}\">",
        num(w),
        num(h),
        num(w),
        num(h)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&graph.title));
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
        num(w),
        num(h)
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"26\" font-size=\"16\" fill=\"{INK}\">{}</text>",
        num(PLOT_LEFT),
        escape(&graph.title)
    );
    // The plot area: White's colour, then Black's share under each run of the curve.
    let _ = writeln!(
        out,
        "<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{WHITE_FILL}\"/>",
        num(PLOT_LEFT),
        num(PLOT_TOP),
        num(PLOT_RIGHT - PLOT_LEFT),
        num(PLOT_BOTTOM - PLOT_TOP)
    );
    let runs = segments(&graph.points);
    for run in &runs {
        let mut pts = String::new();
        let (first, last) = (run[0].0, run[run.len() - 1].0);
        let _ = write!(pts, "{},{}", num(graph_x(first, n)), num(PLOT_BOTTOM));
        for &(i, y) in run {
            let _ = write!(pts, " {},{}", num(graph_x(i, n)), num(y));
        }
        let _ = write!(pts, " {},{}", num(graph_x(last, n)), num(PLOT_BOTTOM));
        let _ = writeln!(
            out,
            "<polygon class=\"black-area\" points=\"{pts}\" fill=\"{BLACK_FILL}\"/>"
        );
    }
    // Grid lines and the y axis labels.
    for pct in [0u32, 25, 50, 75, 100] {
        let y = graph_y(f64::from(pct) / 100.0);
        let dash = if pct == 50 {
            " stroke-dasharray=\"6 4\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{GRID}\" stroke-width=\"1\"{dash}/>",
            num(PLOT_LEFT),
            num(y),
            num(PLOT_RIGHT),
            num(y)
        );
        let _ = writeln!(
            out,
            "<text class=\"y-label\" x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\" \
             fill=\"{INK}\">{pct}%</text>",
            num(PLOT_LEFT - 6.0),
            num(y + 4.0)
        );
    }
    let mid = (PLOT_TOP + PLOT_BOTTOM) / 2.0;
    let _ = writeln!(
        out,
        "<text x=\"16\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{INK}\" \
         transform=\"rotate(-90 16 {})\">expected score for Black</text>",
        num(mid),
        num(mid)
    );
    // The x axis: move numbers.
    let moves = n.saturating_sub(1);
    let step = x_step(moves);
    let mut i = 0;
    while i < n {
        let x = graph_x(i, n);
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{INK}\" stroke-width=\"1\"/>",
            num(x),
            num(PLOT_BOTTOM),
            num(x),
            num(PLOT_BOTTOM + 4.0)
        );
        let _ = writeln!(
            out,
            "<text class=\"x-label\" x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" \
             fill=\"{INK}\">{}</text>",
            num(x),
            num(PLOT_BOTTOM + 17.0),
            graph.first_move + i as u64
        );
        i += step;
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{INK}\">move</text>",
        num((PLOT_LEFT + PLOT_RIGHT) / 2.0),
        num(PLOT_BOTTOM + 33.0)
    );
    // The curve, above the areas.
    for run in &runs {
        let pts: Vec<String> = run
            .iter()
            .map(|&(i, y)| format!("{},{}", num(graph_x(i, n)), num(y)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"curve\" points=\"{}\" fill=\"none\" stroke=\"{CURVE}\" \
             stroke-width=\"2\" stroke-linejoin=\"round\"/>",
            pts.join(" ")
        );
    }
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{INK}\" \
         stroke-width=\"1\"/>",
        num(PLOT_LEFT),
        num(PLOT_TOP),
        num(PLOT_RIGHT - PLOT_LEFT),
        num(PLOT_BOTTOM - PLOT_TOP)
    );
    // The marks.
    for m in &graph.marks {
        let Some(Some(e)) = graph.points.get(m.index) else {
            continue;
        };
        let outline = match m.mover {
            Color::Black => "#000000",
            Color::White => "#ffffff",
        };
        let _ = writeln!(
            out,
            "<circle class=\"mark {}\" data-move=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" \
             stroke=\"{outline}\" stroke-width=\"2\"/>",
            m.kind.word(),
            graph.first_move + m.index as u64,
            num(graph_x(m.index, n)),
            num(graph_y(*e)),
            num(MARK_RADIUS),
            m.kind.colour()
        );
    }
    // The legend.
    let y = h - 16.0;
    let mut x = PLOT_LEFT;
    for (fill, text) in [(BLACK_FILL, "Black (sente)"), (WHITE_FILL, "White (gote)")] {
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{fill}\" stroke=\"{INK}\" \
             stroke-width=\"1\"/>",
            num(x),
            num(y - 11.0)
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{INK}\">{text}</text>",
            num(x + 20.0),
            num(y)
        );
        x += 120.0;
    }
    for kind in [
        GraphMarkKind::Inaccuracy,
        GraphMarkKind::Mistake,
        GraphMarkKind::Blunder,
    ] {
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1\"/>",
            num(x + 7.0),
            num(y - 4.0),
            num(MARK_RADIUS),
            kind.colour()
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{INK}\">{}</text>",
            num(x + 20.0),
            num(y),
            kind.word()
        );
        x += 100.0;
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `<tag ...>` element of `svg` whose text contains `needle`.
    fn elements<'a>(svg: &'a str, tag: &str, needle: &str) -> Vec<&'a str> {
        svg.lines()
            .filter(|l| l.starts_with(&format!("<{tag} ")) && l.contains(needle))
            .collect()
    }

    /// The value of attribute `name` in element `e`.
    fn attr<'a>(e: &'a str, name: &str) -> &'a str {
        let key = format!(" {name}=\"");
        let start = e.find(&key).unwrap() + key.len();
        let len = e[start..].find('"').unwrap();
        &e[start..start + len]
    }

    #[test]
    fn points_sit_where_the_axes_say() {
        // Four positions: even, Black better (75%), White winning (10%), Black won (100%).
        let graph = EvalGraph {
            title: "Kyoto <test> & co".into(),
            first_move: 0,
            points: vec![Some(0.5), Some(0.75), Some(0.1), Some(1.0)],
            marks: vec![GraphMark {
                index: 2,
                kind: GraphMarkKind::Blunder,
                mover: Color::White,
            }],
        };
        let svg = eval_graph_svg(&graph);
        assert!(svg
            .starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"340\""));
        assert!(
            svg.contains("<title>Kyoto &lt;test&gt; &amp; co</title>"),
            "{svg}"
        );
        let curve = elements(&svg, "polyline", "class=\"curve\"");
        assert_eq!(curve.len(), 1);
        // x runs from 70 to 740 in three equal steps of 223.33; y from 262 (0%) to 44 (100%),
        // 218 px for 100%: 50% at 153, 75% at 98.5, 10% at 240.2.
        assert_eq!(
            attr(curve[0], "points"),
            "70,153 293.33,98.5 516.67,240.2 740,44"
        );
        let marks = elements(&svg, "circle", "class=\"mark");
        assert_eq!(marks.len(), 1);
        assert!(marks[0].contains("class=\"mark blunder\""));
        assert_eq!(attr(marks[0], "data-move"), "2");
        assert_eq!(
            (attr(marks[0], "cx"), attr(marks[0], "cy")),
            ("516.67", "240.2")
        );
        assert_eq!(attr(marks[0], "stroke"), "#ffffff");
        // y labels 0% .. 100%, x labels every move (3 moves).
        assert_eq!(elements(&svg, "text", "class=\"y-label\"").len(), 5);
        let xs: Vec<&str> = elements(&svg, "text", "class=\"x-label\"")
            .iter()
            .map(|e| e.rsplit_once("\">").unwrap().1.trim_end_matches("</text>"))
            .collect();
        assert_eq!(xs, ["0", "1", "2", "3"]);
        // Black's area closes on the bottom edge.
        let area = elements(&svg, "polygon", "black-area");
        assert!(attr(area[0], "points").starts_with("70,262 70,153 "));
        assert!(attr(area[0], "points").ends_with(" 740,44 740,262"));
    }

    #[test]
    fn gaps_split_the_curve_and_long_games_thin_the_labels() {
        let mut points = vec![Some(0.5); 61];
        points[10] = None;
        let graph = EvalGraph {
            title: String::new(),
            first_move: 4,
            points,
            marks: vec![GraphMark {
                index: 10,
                kind: GraphMarkKind::Mistake,
                mover: Color::Black,
            }],
        };
        let svg = eval_graph_svg(&graph);
        assert_eq!(elements(&svg, "polyline", "class=\"curve\"").len(), 2);
        // A mark on a position not analysed is not drawn.
        assert!(elements(&svg, "circle", "class=\"mark").is_empty());
        // 60 moves: a label every 5 moves, numbered from the record's first move.
        let labels = elements(&svg, "text", "class=\"x-label\"");
        assert_eq!(labels.len(), 13);
        assert!(labels[1].ends_with(">9</text>"), "{}", labels[1]);
        assert_eq!(x_step(3), 1);
        assert_eq!(x_step(24), 2);
        assert_eq!(x_step(200), 20);
    }
}
