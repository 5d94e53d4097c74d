import Foundation

/// A plane `normal · p = offset` (`normal` of length 1) in the 3-D space of a flattening layer.
struct DepthPlane: Equatable, Sendable {
    /// The unit normal.
    var normal: SIMD3<Double>
    /// The plane's signed distance from the origin along `normal`.
    var offset: Double

    /// The signed distance of `p` from the plane: positive on the side `normal` points to.
    @inline(__always)
    func distance(_ p: SIMD3<Double>) -> Double {
        (normal * p).sum() - offset
    }

    /// The plane through `vertices` (Newell's method, robust for any planar polygon), or nil when
    /// they span no area.
    init?(through vertices: [SIMD3<Double>]) {
        var n = SIMD3<Double>.zero
        var centroid = SIMD3<Double>.zero
        for (i, a) in vertices.enumerated() {
            let b = vertices[(i + 1) % vertices.count]
            n.x += (a.y - b.y) * (a.z + b.z)
            n.y += (a.z - b.z) * (a.x + b.x)
            n.z += (a.x - b.x) * (a.y + b.y)
            centroid += a
        }
        let length = (n * n).sum().squareRoot()
        guard length.isFinite, length > 1e-9, !vertices.isEmpty else { return nil }
        normal = n / length
        offset = (normal * (centroid / Double(vertices.count))).sum()
    }

    /// A plane with the given unit normal and offset.
    init(normal: SIMD3<Double>, offset: Double) {
        self.normal = normal
        self.offset = offset
    }
}

/// One side of a plane that cut a polygon out of its face: the piece keeps the side the normal
/// points to when `keepsFront`, else the other.
struct DepthCut: Equatable, Sendable {
    /// The cutting plane (the plane of another face).
    var plane: DepthPlane
    /// Whether the piece lies on the side the normal points to.
    var keepsFront: Bool
}

/// A convex polygon of one face, or a piece of it, in the 3-D space of the flattening layer the face
/// is sorted under, after the perspective divide: x and y in that layer's plane, z toward the viewer.
/// Perspective keeps planes planar and the order along every line of sight, so the viewer of this
/// space looks along −z from infinitely far (an orthographic view).
struct DepthPolygon: Equatable, Sendable {
    /// The vertices, in order around the polygon.
    var vertices: [SIMD3<Double>]
    /// The polygon's plane (the face's, for every piece of it).
    var plane: DepthPlane
    /// The index of the face it belongs to.
    var face: Int
    /// The planes that cut this piece out of the face, in the order they cut; empty for a whole face.
    var cuts: [DepthCut] = []

    /// A whole face's polygon; nil when the vertices span no area.
    init?(face: Int, vertices: [SIMD3<Double>]) {
        guard vertices.count >= 3, let plane = DepthPlane(through: vertices) else { return nil }
        self.vertices = vertices
        self.plane = plane
        self.face = face
    }

    /// A piece with every field given.
    init(vertices: [SIMD3<Double>], plane: DepthPlane, face: Int, cuts: [DepthCut]) {
        self.vertices = vertices
        self.plane = plane
        self.face = face
        self.cuts = cuts
    }

    /// The mean of the vertices.
    var centroid: SIMD3<Double> {
        vertices.reduce(.zero, +) / Double(max(vertices.count, 1))
    }
}

/// Orders the faces of a 3-D layer tree back to front, splitting those that cross, with a BSP tree
/// of their planes (binary space partitioning, as Chromium's compositor sorts `preserve-3d` layers).
///
/// The first polygon of the list is the root: the others are sorted to the side of its plane they
/// lie on, those that lie on both sides split in two along the plane, and those in the plane kept
/// with it; each side is then sorted the same way. Drawing the side away from the viewer first,
/// then the root's plane, then the side toward the viewer gives an order in which nothing is drawn
/// over a polygon in front of it, whatever the polygons' sizes, so each pixel shows the nearest one.
/// Polygons in one plane keep the order they were given in (zPosition, then sublayer order).
///
/// The work is bounded: `maxPieces` pieces in all (splits add pieces). Past it the sort gives up
/// splitting and falls back to `painterOrder`.
enum DepthSort {
    /// How far from a plane a vertex may lie and still count as on it, in the space's units (points):
    /// faces that meet along an edge, like a cube's, are not split by rounding.
    static let epsilon = 1e-3

    /// What a sort produced.
    struct Result: Equatable, Sendable {
        /// The pieces, back to front; each whole face that was not split is one piece without cuts.
        var pieces: [DepthPolygon]
        /// Whether the BSP sort ran (false: the budget was exceeded and `painterOrder` was used).
        var exact: Bool
    }

    /// Sorts `polygons` (in their drawing order) back to front, splitting where needed, with at most
    /// `maxPieces` pieces; past that, the polygons in `painterOrder`, unsplit.
    static func sort(_ polygons: [DepthPolygon], maxPieces: Int) -> Result {
        var budget = maxPieces - polygons.count
        guard budget >= 0 else { return Result(pieces: painterOrder(polygons), exact: false) }
        var out: [DepthPolygon] = []
        out.reserveCapacity(polygons.count)
        guard sort(polygons[...], into: &out, budget: &budget) else {
            return Result(pieces: painterOrder(polygons), exact: false)
        }
        return Result(pieces: out, exact: true)
    }

    /// The polygons sorted by the depth of their centroids, farthest first (ties keep their order):
    /// the painter's order, exact only when no two polygons overlap in depth.
    static func painterOrder(_ polygons: [DepthPolygon]) -> [DepthPolygon] {
        let depths = polygons.map(\.centroid.z)
        return polygons.indices.sorted { (depths[$0], $0) < (depths[$1], $1) }.map { polygons[$0] }
    }

    /// Appends `list` sorted back to front to `out`; false when a split would exceed `budget`.
    private static func sort(_ list: ArraySlice<DepthPolygon>, into out: inout [DepthPolygon], budget: inout Int)
        -> Bool
    {
        guard let root = list.first else { return true }
        if list.count == 1 {
            out.append(root)
            return true
        }
        var front: [DepthPolygon] = []
        var back: [DepthPolygon] = []
        var coplanar = [root]
        for polygon in list.dropFirst() {
            switch classify(polygon, by: root.plane) {
            case .front: front.append(polygon)
            case .back: back.append(polygon)
            case .coplanar: coplanar.append(polygon)
            case .split(let f, let b):
                budget -= 1
                guard budget >= 0 else { return false }
                front.append(f)
                back.append(b)
            }
        }
        // The viewer is at +∞ z: on the side of the root's plane its normal's z points to. An edge-on
        // plane shows no side; either order is right there.
        let viewerInFront = root.plane.normal.z >= 0
        guard sort((viewerInFront ? back : front)[...], into: &out, budget: &budget) else { return false }
        out += coplanar
        return sort((viewerInFront ? front : back)[...], into: &out, budget: &budget)
    }

    /// Where a polygon lies against a plane.
    enum Side: Equatable {
        case front, back, coplanar
        /// On both sides: the part on the side the normal points to, and the other part.
        case split(DepthPolygon, DepthPolygon)
    }

    /// Where `polygon` lies against `plane`, splitting it when it lies on both sides (each part with
    /// the cut added; vertices within `epsilon` of the plane go to both parts).
    static func classify(_ polygon: DepthPolygon, by plane: DepthPlane) -> Side {
        let distances = polygon.vertices.map(plane.distance)
        let hasFront = distances.contains { $0 > epsilon }
        let hasBack = distances.contains { $0 < -epsilon }
        switch (hasFront, hasBack) {
        case (false, false): return .coplanar
        case (true, false): return .front
        case (false, true): return .back
        case (true, true): break
        }
        var frontVertices: [SIMD3<Double>] = []
        var backVertices: [SIMD3<Double>] = []
        let count = polygon.vertices.count
        for i in 0..<count {
            let a = polygon.vertices[i], da = distances[i]
            let j = (i + 1) % count
            let b = polygon.vertices[j], db = distances[j]
            if da >= -epsilon { frontVertices.append(a) }
            if da <= epsilon { backVertices.append(a) }
            if (da > epsilon && db < -epsilon) || (da < -epsilon && db > epsilon) {
                let point = a + (b - a) * (da / (da - db))
                frontVertices.append(point)
                backVertices.append(point)
            }
        }
        let frontPiece = DepthPolygon(
            vertices: frontVertices, plane: polygon.plane, face: polygon.face,
            cuts: polygon.cuts + [DepthCut(plane: plane, keepsFront: true)])
        let backPiece = DepthPolygon(
            vertices: backVertices, plane: polygon.plane, face: polygon.face,
            cuts: polygon.cuts + [DepthCut(plane: plane, keepsFront: false)])
        return .split(frontPiece, backPiece)
    }
}
