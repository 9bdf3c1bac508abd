import Foundation

/// The table of medians and ratios, in Markdown so that it can go straight into BENCHMARKS.md.
enum Report {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func table(_ results: [WorkloadResult], runs: Int, withInstructions: Bool = false) -> String {
        var lines = [
            "Medians of \(runs) alternating run\(runs == 1 ? "" : "s"); peak RSS is the largest of any run (of any one process).",
            "Ratios are ours/peer: below 1 we are faster (or smaller), above 1 slower."
                + (withInstructions ? " Instructions: one run of each side under callgrind." : ""),
            "",
            "| workload | side | wall s | CPU s | peak RSS MB | wall ours/peer | CPU ours/peer | RSS ours/peer | target wall | met |"
                + (withInstructions ? " instructions | instructions ours/peer |" : ""),
            "|---|---|---:|---:|---:|---:|---:|---:|---:|:---:|" + (withInstructions ? "---:|---:|" : ""),
        ]
        for result in results {
            guard let oursIndex = result.workload.sides.firstIndex(where: \.isOurs) else { continue }
            let ours = summary(result.costs[oursIndex])
            for (index, side) in result.workload.sides.enumerated() {
                let this = summary(result.costs[index])
                var row = "| \(index == 0 ? result.workload.name : "") | \(side.name) | "
                    + String(format: "%.2f | %.2f | %.0f |", this.wall, this.cpu, this.rssMB)
                if side.isOurs {
                    if let measurements = result.workload.measurements {
                        let peers = result.workload.sides.indices.filter { !result.workload.sides[$0].isOurs }
                            .map { values(of: measurements, result.metrics[$0]) }
                        let met = measurements.met(values(of: measurements, result.metrics[index]), peers)
                        row += " | | | \(measurements.target) | \(met ? "yes" : "**no**") |"
                    } else {
                        row += " | | | | |"
                    }
                } else {
                    row += String(format: " %.2f | %.2f | %.2f |", ours.wall / this.wall, ours.cpu / this.cpu, ours.rssMB / this.rssMB)
                    if let target = result.workload.targets[side.name] {
                        row += String(format: " ≤ %.2f | %@ |", target, ours.wall / this.wall <= target ? "yes" : "**no**")
                    } else {
                        row += " – | |"
                    }
                }
                if withInstructions {
                    let counted = result.instructions[index]
                    row += counted.map { String(format: " %.4g |", $0) } ?? " – |"
                    if !side.isOurs, let counted, let oursCounted = result.instructions[oursIndex] {
                        row += String(format: " %.3f |", oursCounted / counted)
                    } else {
                        row += " |"
                    }
                }
                lines.append(row)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Each column's value over a side's runs: the median, or the largest for `largest` columns;
    /// columns no run measured are left out.
    static func values(of measurements: Measurements, _ runs: [[String: Double]]) -> [String: Double] {
        var values: [String: Double] = [:]
        for column in measurements.columns {
            let measured = runs.compactMap { $0[column.key] }
            guard !measured.isEmpty else { continue }
            values[column.key] = column.largest ? measured.max()! : median(measured)
        }
        return values
    }

    /// A workload's measurements besides cost, one row per side (capture, playback, seeks).
    static func measurementsTable(_ result: WorkloadResult) -> String {
        guard let measurements = result.workload.measurements else { return "" }
        var lines = [
            "\(result.workload.name): medians of the runs"
                + (measurements.columns.contains(where: \.largest) ? ", except the drop columns: the most in any run" : "")
                + ". Target (ours): \(measurements.target).",
            "",
            "| side | wall s | CPU s | peak RSS MB | " + measurements.columns.map(\.title).joined(separator: " | ") + " |",
            "|---|---:|---:|---:|" + String(repeating: "---:|", count: measurements.columns.count),
        ]
        for (index, side) in result.workload.sides.enumerated() {
            let cost = summary(result.costs[index])
            let shown = values(of: measurements, result.metrics[index])
            let cells = measurements.columns.map { column in
                shown[column.key].map { String(format: $0 == $0.rounded() && abs($0) < 1e6 ? "%.0f" : "%.2f", $0) } ?? "–"
            }
            lines.append("| \(side.name) | " + String(format: "%.2f | %.2f | %.0f | ", cost.wall, cost.cpu, cost.rssMB)
                         + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ costs: [Cost]) -> (wall: Double, cpu: Double, rssMB: Double) {
        (median(costs.map(\.wall)), median(costs.map(\.cpu)), Double(costs.map(\.peakRSSKiB).max() ?? 0) / 1024)
    }

    static func settings(_ results: [WorkloadResult]) -> String {
        var lines = ["Settings (the same input and codec settings on both sides):"]
        for result in results {
            lines.append("- \(result.workload.name): \(result.workload.title)")
            for setting in result.workload.settings + result.notes { lines.append("    \(setting)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
