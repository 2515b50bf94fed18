#include <achain/reach/voxel_set.hpp>
#include "number_text.hpp"

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <fstream>
#include <limits>
#include <unordered_map>

namespace achain {

double VoxelSet::cellsFor(double voxel, const Vec3& origin, const Vec3& lo_point, const Vec3& hi_point) {
  double total = 1;
  for (int a = 0; a < 3; ++a)
    total *= (std::floor((hi_point[a] - origin[a]) / voxel) + 1) - (std::floor((lo_point[a] - origin[a]) / voxel) - 1) + 1;
  return total;
}

VoxelSet::VoxelSet(double voxel, const Vec3& origin, const Vec3& lo_point, const Vec3& hi_point, double max_cells) {
  if (!(voxel > 0) || !std::isfinite(voxel)) throw Error("voxel: must be a positive finite length (got " + reach_detail::shortNumber(voxel) + ")");
  if (!origin.allFinite()) throw Error("origin: must be finite");
  if (!lo_point.allFinite() || !hi_point.allFinite()) throw Error("workspace bounds: not finite (check the joint limits)");
  voxel_ = voxel;
  inv_ = 1.0 / voxel;
  origin_ = origin;
  double total = 1;
  Vec3i hi;
  for (int a = 0; a < 3; ++a) {
    const double l = std::floor((lo_point[a] - origin[a]) * inv_) - 1;
    const double h = std::floor((hi_point[a] - origin[a]) * inv_) + 1;
    if (!(h - l + 1 < 2e9)) throw Error("voxel: " + reach_detail::shortNumber(voxel) + " m is too small for a workspace this large");
    lo_[a] = int(l);
    hi[a] = int(h);
    dims_[a] = hi[a] - lo_[a] + 1;
    total *= dims_[a];
  }
  if (total > max_cells)
    throw Error("voxel: " + reach_detail::shortNumber(voxel) + " m needs a grid of " + reach_detail::shortNumber(total) + " cells over the reach box (limit " + reach_detail::shortNumber(max_cells) +
                "); use a larger voxel");
  bits_.assign(size_t((int64_t(total) + 63) / 64), 0);
}

void VoxelSet::recount() {
  size_t n = 0;
  for (uint64_t w : bits_) n += size_t(__builtin_popcountll(w));
  count_ = n;
}

void VoxelSet::merge(const VoxelSet& o) {
  if (o.bits_.size() != bits_.size()) throw Error("VoxelSet::merge: different boxes");
  for (size_t w = 0; w < bits_.size(); ++w) bits_[w] |= o.bits_[w];
  recount();
}

void VoxelSet::clear() {
  std::fill(bits_.begin(), bits_.end(), 0);
  count_ = 0;
}

Vec3i VoxelSet::lattice(int64_t c) const {
  const int64_t nx = dims_[0], ny = dims_[1];
  const int i = int(c % nx), j = int((c / nx) % ny), k = int(c / (nx * ny));
  return Vec3i(i + lo_[0], j + lo_[1], k + lo_[2]);
}

int64_t VoxelSet::cellOfLattice(const Vec3i& g) const {
  const Vec3i l = g - lo_;
  if (l[0] < 0 || l[1] < 0 || l[2] < 0 || l[0] >= dims_[0] || l[1] >= dims_[1] || l[2] >= dims_[2]) return -1;
  return l[0] + int64_t(dims_[0]) * (l[1] + int64_t(dims_[1]) * l[2]);
}

Vec3 VoxelSet::corner(int64_t c) const { return origin_ + voxel_ * lattice(c).cast<double>(); }
Vec3 VoxelSet::centre(int64_t c) const { return corner(c) + Vec3::Constant(0.5 * voxel_); }

bool VoxelSet::latticeBounds(Vec3i& mn, Vec3i& mx) const {
  if (count_ == 0) return false;
  mn = Vec3i::Constant(std::numeric_limits<int>::max());
  mx = Vec3i::Constant(std::numeric_limits<int>::min());
  forEach([&](int64_t c) {
    const Vec3i g = lattice(c);
    mn = mn.cwiseMin(g);
    mx = mx.cwiseMax(g);
  });
  return true;
}

bool VoxelSet::bounds(Vec3& mn, Vec3& mx) const {
  Vec3i a, b;
  if (!latticeBounds(a, b)) return false;
  mn = origin_ + voxel_ * a.cast<double>();
  mx = origin_ + voxel_ * (b + Vec3i::Ones()).cast<double>();
  return true;
}

namespace {
void sameLattice(const VoxelSet& a, const VoxelSet& b) {
  if (std::abs(a.voxel() - b.voxel()) > 1e-12 * a.voxel())
    throw Error("overlap: the two workspaces use different voxel sizes (" + reach_detail::shortNumber(a.voxel()) + " vs " + reach_detail::shortNumber(b.voxel()) + " m)");
  if ((a.origin() - b.origin()).cwiseAbs().maxCoeff() > 1e-12 * a.voxel())
    throw Error("overlap: the two workspaces use different lattice origins");
}
}  // namespace

VoxelOverlap voxelOverlap(const VoxelSet& a, const VoxelSet& b) {
  sameLattice(a, b);
  VoxelOverlap o;
  o.a = a.count();
  o.b = b.count();
  a.forEach([&](int64_t c) { o.both += b.containsLattice(a.lattice(c)); });
  o.either = o.a + o.b - o.both;
  return o;
}

VoxelSet voxelIntersection(const VoxelSet& a, const VoxelSet& b) {
  sameLattice(a, b);
  VoxelSet out = a;
  out.clear();
  a.forEach([&](int64_t c) {
    if (b.containsLattice(a.lattice(c))) out.insert(c);
  });
  return out;
}

size_t voxelsNear(const VoxelSet& a, const VoxelSet& b, int reach) {
  sameLattice(a, b);
  size_t n = 0;
  a.forEach([&](int64_t c) {
    const Vec3i g = a.lattice(c);
    for (int dz = -reach; dz <= reach; ++dz)
      for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx)
          if (b.containsLattice(g + Vec3i(dx, dy, dz))) {
            ++n;
            return;
          }
  });
  return n;
}

double VoxelSection::area() const { return double(count) * voxel * voxel; }

VoxelSection voxelSection(const VoxelSet& s, int axis, double value) {
  if (axis < 0 || axis > 2) throw Error("axis: must be x, y or z");
  if (!std::isfinite(value)) throw Error("section: the plane coordinate must be finite");
  VoxelSection out;
  out.axis = axis;
  out.voxel = s.voxel();
  out.u_axis = (axis + 1) % 3;
  out.v_axis = (axis + 2) % 3;
  if (out.u_axis > out.v_axis) std::swap(out.u_axis, out.v_axis);  // x-y, x-z, y-z images
  out.layer = int(std::floor((value - s.origin()[axis]) / s.voxel()));
  out.coordinate = s.origin()[axis] + (out.layer + 0.5) * s.voxel();
  out.u_lo = s.lo()[out.u_axis];
  out.v_lo = s.lo()[out.v_axis];
  out.nu = s.dims()[out.u_axis];
  out.nv = s.dims()[out.v_axis];
  out.occupied.assign(size_t(out.nu) * out.nv, 0);
  Vec3i g;
  g[axis] = out.layer;
  for (int v = 0; v < out.nv; ++v)
    for (int u = 0; u < out.nu; ++u) {
      g[out.u_axis] = out.u_lo + u;
      g[out.v_axis] = out.v_lo + v;
      if (s.containsLattice(g)) {
        out.occupied[size_t(v) * out.nu + u] = 1;
        ++out.count;
      }
    }
  return out;
}

namespace {
const Vec3i kDirs[6] = {Vec3i(1, 0, 0), Vec3i(-1, 0, 0), Vec3i(0, 1, 0), Vec3i(0, -1, 0), Vec3i(0, 0, 1), Vec3i(0, 0, -1)};
}

VoxelMesh voxelSurfaceMesh(const VoxelSet& s) {
  VoxelMesh m;
  std::unordered_map<uint64_t, uint32_t> index;
  auto vertex = [&](const Vec3i& g) -> uint32_t {
    const uint64_t key = (uint64_t(uint32_t(g[0] + (1 << 20))) << 42) | (uint64_t(uint32_t(g[1] + (1 << 20))) << 21) |
                         uint64_t(uint32_t(g[2] + (1 << 20)));
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    const uint32_t id = uint32_t(m.positions.size() / 3);
    const Vec3 p = s.origin() + s.voxel() * g.cast<double>();
    m.positions.push_back(float(p.x()));
    m.positions.push_back(float(p.y()));
    m.positions.push_back(float(p.z()));
    index.emplace(key, id);
    return id;
  };
  s.forEach([&](int64_t c) {
    const Vec3i g = s.lattice(c);
    for (int d = 0; d < 6; ++d) {
      if (s.containsLattice(g + kDirs[d])) continue;
      const int a = d / 2, u = (a + 1) % 3, v = (a + 2) % 3;
      const bool pos = (d % 2) == 0;
      Vec3i q[4];
      for (int k = 0; k < 4; ++k) {
        q[k] = g;
        if (pos) q[k][a] += 1;
      }
      q[1][u] += 1;
      q[2][u] += 1;
      q[2][v] += 1;
      q[3][v] += 1;
      uint32_t id[4];
      for (int k = 0; k < 4; ++k) id[k] = vertex(q[k]);
      if (pos) {
        m.indices.insert(m.indices.end(), {id[0], id[1], id[2], id[0], id[2], id[3]});
      } else {
        m.indices.insert(m.indices.end(), {id[0], id[2], id[1], id[0], id[3], id[2]});
      }
    }
  });
  return m;
}

namespace {
bool onSurface(const VoxelSet& s, const Vec3i& g) {
  for (const auto& d : kDirs)
    if (!s.containsLattice(g + d)) return true;
  return false;
}
}  // namespace

size_t surfaceVoxelCount(const VoxelSet& s) {
  size_t n = 0;
  s.forEach([&](int64_t c) { n += onSurface(s, s.lattice(c)); });
  return n;
}

namespace {
/// The centres of s's voxels (its surface ones if surface_only) for which keep(lattice point) holds, as x, y, z floats.
template <class Keep>
std::vector<float> centresWhere(const VoxelSet& s, bool surface_only, size_t expected, Keep keep) {
  std::vector<float> out;
  out.reserve(3 * expected);
  s.forEach([&](int64_t c) {
    const Vec3i g = s.lattice(c);
    if ((surface_only && !onSurface(s, g)) || !keep(g)) return;
    const Vec3 p = s.centre(c);
    out.push_back(float(p.x()));
    out.push_back(float(p.y()));
    out.push_back(float(p.z()));
  });
  return out;
}
}  // namespace

std::vector<float> voxelCentres(const VoxelSet& s, bool surface_only) {
  return centresWhere(s, surface_only, surface_only ? s.count() / 4 : s.count(), [](const Vec3i&) { return true; });
}

std::vector<float> voxelCentres(const VoxelSet& s, bool surface_only, const VoxelSet& other, bool shared) {
  sameLattice(s, other);
  return centresWhere(s, surface_only, 0, [&](const Vec3i& g) { return other.containsLattice(g) == shared; });
}

void writeVoxelPly(const VoxelSet& s, const std::string& path, bool as_points) {
  std::ofstream f(path);
  if (!f) throw Error(path + ": cannot open for writing");
  f << "ply\nformat ascii 1.0\ncomment achain reachable workspace, voxel " << s.voxel() << " m, " << s.count() << " voxels\n";
  if (as_points) {
    const std::vector<float> c = voxelCentres(s, false);
    f << "element vertex " << c.size() / 3 << "\nproperty float x\nproperty float y\nproperty float z\nend_header\n";
    for (size_t i = 0; i < c.size(); i += 3) f << c[i] << ' ' << c[i + 1] << ' ' << c[i + 2] << '\n';
  } else {
    const VoxelMesh m = voxelSurfaceMesh(s);
    f << "element vertex " << m.vertices() << "\nproperty float x\nproperty float y\nproperty float z\n";
    f << "element face " << m.triangles() << "\nproperty list uchar int vertex_indices\nend_header\n";
    for (size_t i = 0; i < m.positions.size(); i += 3) f << m.positions[i] << ' ' << m.positions[i + 1] << ' ' << m.positions[i + 2] << '\n';
    for (size_t i = 0; i < m.indices.size(); i += 3) f << "3 " << m.indices[i] << ' ' << m.indices[i + 1] << ' ' << m.indices[i + 2] << '\n';
  }
  if (!f) throw Error(path + ": write failed");
}

}  // namespace achain
