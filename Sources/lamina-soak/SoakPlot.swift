import CCairo
import Foundation

/// Draws a soak run's samples as a PNG with Cairo: one panel per series (server RSS, descriptors,
/// capture time) over the run's minutes.
enum SoakPlot {
    /// One panel: a title, a unit and a value per sample.
    struct Series {
        var title: String
        var values: [Double]
        var red: Double
        var green: Double
        var blue: Double
    }

    /// Writes the plot of `samples` to `path`; throws when Cairo cannot write the file.
    static func write(_ samples: [SoakSample], title: String, to path: String) throws {
        let width = 1000.0
        let panelHeight = 220.0
        let top = 40.0
        let series = [
            Series(
                title: "server RSS (MiB)", values: samples.map { Double($0.rssKiB) / 1024 }, red: 0.1, green: 0.35,
                blue: 0.8),
            Series(
                title: "server descriptors", values: samples.map { Double($0.descriptors) }, red: 0.8, green: 0.4,
                blue: 0.1),
            Series(
                title: "capture time (ms)", values: samples.map(\.captureMilliseconds), red: 0.2, green: 0.6,
                blue: 0.2),
        ]
        let height = top + panelHeight * Double(series.count) + 30
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw SoakError("cannot create a Cairo surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw SoakError("cannot create a Cairo context") }
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_font_size(cr, 16)
        cairo_move_to(cr, 20, 26)
        cairo_show_text(cr, title)
        let times = samples.map { $0.elapsed / 60 }
        let maxTime = max(times.last ?? 1, 1e-3)
        for (index, panel) in series.enumerated() {
            let frame = (x: 80.0, y: top + Double(index) * panelHeight + 10, w: width - 110, h: panelHeight - 50)
            drawPanel(cr, panel, times: times, maxTime: maxTime, frame: frame)
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_font_size(cr, 12)
        cairo_move_to(cr, width / 2 - 20, height - 10)
        cairo_show_text(cr, "minutes")
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else { throw SoakError("cannot write \(path): Cairo status \(status)") }
    }

    static func drawPanel(
        _ cr: OpaquePointer, _ panel: Series, times: [Double], maxTime: Double,
        frame: (x: Double, y: Double, w: Double, h: Double)
    ) {
        let valid = panel.values.filter { $0 >= 0 }
        let low = min(valid.min() ?? 0, 0)
        var high = valid.max() ?? 1
        high = high > low ? high * 1.1 : low + 1
        cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
        cairo_set_line_width(cr, 1)
        cairo_rectangle(cr, frame.x, frame.y, frame.w, frame.h)
        cairo_stroke(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_font_size(cr, 13)
        cairo_move_to(cr, frame.x + 6, frame.y - 4 + 18)
        cairo_show_text(cr, panel.title)
        cairo_set_font_size(cr, 11)
        for step in 0...4 {
            let value = low + (high - low) * Double(step) / 4
            let y = frame.y + frame.h - frame.h * Double(step) / 4
            cairo_move_to(cr, 8, y + 4)
            cairo_show_text(cr, String(format: "%.1f", value))
            let minute = maxTime * Double(step) / 4
            cairo_move_to(cr, frame.x + frame.w * Double(step) / 4 - 10, frame.y + frame.h + 14)
            cairo_show_text(cr, String(format: maxTime < 5 ? "%.2f" : "%.1f", minute))
        }
        cairo_set_source_rgb(cr, panel.red, panel.green, panel.blue)
        cairo_set_line_width(cr, 1.5)
        var drawing = false
        for (time, value) in zip(times, panel.values) {
            guard value >= 0 else {
                drawing = false
                continue
            }
            let x = frame.x + frame.w * time / maxTime
            let y = frame.y + frame.h - frame.h * (value - low) / (high - low)
            if drawing { cairo_line_to(cr, x, y) } else { cairo_move_to(cr, x, y) }
            drawing = true
        }
        cairo_stroke(cr)
    }
}
