#include "sweep_pruner.hpp"

#include <algorithm>
#include <cmath>

namespace achain::reach_detail {

namespace {
constexpr uint16_t kNever = 0xFFFF;  // a bin whose voxel box meets the grid box's edge: never full

long floorLong(double v) { return long(detail::floorToInt(v)); }  // std::floor is a libm call on baseline x86-64
long wrap(long f, long n) {
  f %= n;
  return f < 0 ? f + n : f;
}
}  // namespace

void SweepPruner::start(const SE3& A, const std::vector<double>& dtheta, const std::vector<double>& dz,
                        const std::vector<Vec3>& reps, size_t src_begin, size_t src_end, const VoxelSet& G) {
  R_ = A.R;
  RT_ = A.R.transpose();
  absR_ = A.R.cwiseAbs();
  p_ = A.p;
  w_ = kBin * G.voxel();
  inv_w_ = 1.0 / w_;
  steps_ = dtheta.size();
  pruned_ = 0;

  // The sources' cylindrical coordinates about the axis, and where the sweep can take them.
  src_begin_ = src_begin;
  cyl_.resize(src_end - src_begin);
  double rho_max = 0, zmin = 0, zmax = 0;
  for (size_t i = src_begin; i < src_end; ++i) {
    const Vec3 y = RT_ * (reps[i] - p_);
    const double rho = std::hypot(y.x(), y.y());
    cyl_[i - src_begin] = Vec3(rho, std::atan2(y.y(), y.x()), y.z());
    rho_max = std::max(rho_max, rho);
    zmin = i == src_begin ? y.z() : std::min(zmin, y.z());
    zmax = i == src_begin ? y.z() : std::max(zmax, y.z());
  }
  double dlo = 0, dhi = 0;
  for (double d : dz) {
    dlo = std::min(dlo, d);
    dhi = std::max(dhi, d);
  }
  const Vec3 corner = G.origin() + G.voxel() * G.lo().cast<double>();
  const double scale = 1 + rho_max + std::abs(zmin) + std::abs(zmax) + std::abs(dlo) + std::abs(dhi) + p_.norm() + corner.norm();
  eps_ = 1e-9 * scale;  // ≫ the rounding of a moved point (~1e-15·scale), ≪ a voxel
  zlo_ = zmin + dlo - w_;
  nr_ = floorLong(rho_max * inv_w_) + 2;
  nz_ = floorLong((zmax + dhi + w_ - zlo_) * inv_w_) + 2;
  nphi_ = std::max(1L, long(std::ceil(2 * kPi * (rho_max + w_) * inv_w_)));
  dphi_ = 2 * kPi / double(nphi_);
  inv_dphi_ = 1.0 / dphi_;
  words_ = (nphi_ + 63) / 64;
  full_.assign(size_t(nr_) * size_t(nz_) * size_t(words_), 0);
  bins_.assign(size_t(nr_) * size_t(nz_) * size_t(nphi_), BinState(0));
  cos_.resize(size_t(nphi_) + 1);
  sin_.resize(size_t(nphi_) + 1);
  for (long f = 0; f <= nphi_; ++f) {
    cos_[size_t(f)] = std::cos(-kPi + f * dphi_);
    sin_[size_t(f)] = std::sin(-kPi + f * dphi_);
  }

  // Per chunk and super-chunk of steps: the range of Δθ and Δd (a chunk's points lie in that range).
  const size_t nc = (steps_ + kChunk - 1) / kChunk, ns = (nc + kSuper - 1) / kSuper;
  cth_lo_.assign(nc, 0), cth_hi_.assign(nc, 0), cdz_lo_.assign(nc, 0), cdz_hi_.assign(nc, 0);
  sth_lo_.assign(ns, 0), sth_hi_.assign(ns, 0), sdz_lo_.assign(ns, 0), sdz_hi_.assign(ns, 0);
  for (size_t c = 0; c < nc; ++c) {
    const size_t k0 = c * kChunk, k1 = std::min(steps_, k0 + kChunk);
    const auto [tl, th] = std::minmax_element(dtheta.begin() + long(k0), dtheta.begin() + long(k1));
    const auto [zl, zh] = std::minmax_element(dz.begin() + long(k0), dz.begin() + long(k1));
    cth_lo_[c] = *tl, cth_hi_[c] = *th, cdz_lo_[c] = *zl, cdz_hi_[c] = *zh;
    const size_t s = c / kSuper;
    const bool first = c % kSuper == 0;
    sth_lo_[s] = first ? *tl : std::min(sth_lo_[s], *tl);
    sth_hi_[s] = first ? *th : std::max(sth_hi_[s], *th);
    sdz_lo_[s] = first ? *zl : std::min(sdz_lo_[s], *zl);
    sdz_hi_[s] = first ? *zh : std::max(sdz_hi_[s], *zh);
  }
}

bool SweepPruner::rowSet(const uint64_t* words, int64_t c0, int64_t len) {
  const int64_t c1 = c0 + len - 1;
  for (int64_t wi = c0 >> 6; wi <= (c1 >> 6); ++wi) {
    uint64_t m = ~uint64_t(0);
    if (wi == (c0 >> 6)) m &= ~uint64_t(0) << (c0 & 63);
    if (wi == (c1 >> 6)) m &= ~uint64_t(0) >> (63 - (c1 & 63));
    // a relaxed atomic load (a plain load on x86 and in wasm): other threads may be setting bits of this word
    if ((__atomic_load_n(&words[wi], __ATOMIC_RELAXED) & m) != m) return false;
  }
  return true;
}

// Whether every voxel meeting bin (row, f) grown by ε is set; resumes at the first row not yet found full.
bool SweepPruner::binFull(const VoxelSet& G, size_t row, long f) {
  BinState* slot = &bins_[row * size_t(nphi_) + size_t(f)];
  const BinState packed = __atomic_load_n(slot, __ATOMIC_RELAXED);
  const auto save = [slot](uint32_t cell, uint16_t rows_full, uint8_t len) {
    __atomic_store_n(slot, uint64_t(cell) | uint64_t(rows_full) << 32 | uint64_t(len) << 48, __ATOMIC_RELAXED);
  };
  uint16_t rows_full = uint16_t(packed >> 32);
  const uint32_t cell = uint32_t(packed);
  const uint8_t last_len = uint8_t(packed >> 48);
  if (rows_full == kNever) return false;
  const uint64_t* words = G.words().data();
  if (last_len > 0 && !rowSet(words, cell, last_len)) return false;  // the row that failed last time still does
  const long zb = long(row) / nr_, r = long(row) % nr_;
  const double rho_lo = r * w_, rho_hi = (r + 1) * w_, z0 = zlo_ + zb * w_;
  // the bin's local bounding box: the annular sector's corners and the cardinal points it spans
  const double ca = cos_[size_t(f)], sa = sin_[size_t(f)], cb = cos_[size_t(f) + 1], sb = sin_[size_t(f) + 1];
  double x0 = std::min({rho_lo * ca, rho_lo * cb, rho_hi * ca, rho_hi * cb}), x1 = std::max({rho_lo * ca, rho_lo * cb, rho_hi * ca, rho_hi * cb});
  double y0 = std::min({rho_lo * sa, rho_lo * sb, rho_hi * sa, rho_hi * sb}), y1 = std::max({rho_lo * sa, rho_lo * sb, rho_hi * sa, rho_hi * sb});
  const double pa = -kPi + f * dphi_, pb = pa + dphi_;
  for (int q = -2; q <= 2; ++q) {
    const double c = q * 0.5 * kPi;
    if (c < pa - 1e-12 || c > pb + 1e-12) continue;
    x0 = std::min(x0, rho_hi * std::cos(c)), x1 = std::max(x1, rho_hi * std::cos(c));
    y0 = std::min(y0, rho_hi * std::sin(c)), y1 = std::max(y1, rho_hi * std::sin(c));
  }
  const Vec3 cl(0.5 * (x0 + x1), 0.5 * (y0 + y1), z0 + 0.5 * w_), hl(0.5 * (x1 - x0), 0.5 * (y1 - y0), 0.5 * w_);
  const Vec3 cw = R_ * cl + p_, hw = absR_ * hl + Vec3::Constant(eps_);
  // its voxels (the same index arithmetic as VoxelSet::cellOf)
  const double inv = 1.0 / G.voxel();
  Vec3i a, b;
  for (int d = 0; d < 3; ++d) {
    a[d] = int(detail::floorToInt((cw[d] - hw[d] - G.origin()[d]) * inv)) - G.lo()[d];
    b[d] = int(detail::floorToInt((cw[d] + hw[d] - G.origin()[d]) * inv)) - G.lo()[d];
    if (a[d] < 0 || b[d] >= G.dims()[d]) {
      save(0, kNever, 0);
      return false;
    }
  }
  const long nj = b[1] - a[1] + 1, rows = nj * (b[2] - a[2] + 1), len = b[0] - a[0] + 1;
  if (rows >= kNever || len > 255) {
    save(0, kNever, 0);
    return false;
  }
  const int64_t d0 = G.dims()[0], d1 = G.dims()[1];
  for (; rows_full < rows; ++rows_full) {
    const int64_t j = a[1] + rows_full % nj, k = a[2] + rows_full / nj;
    const int64_t c0 = a[0] + d0 * (j + d1 * k);
    if (!rowSet(words, c0, len)) {
      save(uint32_t(c0), rows_full, uint8_t(len));
      return false;
    }
  }
  save(0, rows_full, 0);
  __atomic_fetch_or(&full_[row * size_t(words_) + size_t(f) / 64], uint64_t(1) << (f & 63), __ATOMIC_RELAXED);
  return true;
}

bool SweepPruner::rangeFull(const VoxelSet& G, double rho, double phi0, double phi1, double z0, double z1) {
  const long r0 = std::max(0L, floorLong((rho - eps_) * inv_w_)), r1 = floorLong((rho + eps_) * inv_w_);
  const long zb0 = floorLong((z0 - eps_ - zlo_) * inv_w_), zb1 = floorLong((z1 + eps_ - zlo_) * inv_w_);
  if (r1 >= nr_ || zb0 < 0 || zb1 >= nz_) return false;
  long f0 = 0, f1 = nphi_ - 1;
  if (rho > w_) {
    const double ea = eps_ / rho;
    const long a = floorLong((phi0 - ea + kPi) * inv_dphi_), e = floorLong((phi1 + ea + kPi) * inv_dphi_);
    if (e - a + 1 < nphi_) {
      f0 = wrap(a, nphi_);
      f1 = f0 + (e - a);
    }
  }
  for (long zb = zb0; zb <= zb1; ++zb)
    for (long r = r0; r <= r1; ++r) {
      const size_t row = size_t(zb) * size_t(nr_) + size_t(r);
      const uint64_t* w = full_.data() + row * size_t(words_);
      for (long g = f0; g <= f1; ++g) {
        const long f = g >= nphi_ ? g - nphi_ : g;
        if ((__atomic_load_n(&w[f >> 6], __ATOMIC_RELAXED) >> (f & 63)) & 1u) continue;
        if (!binFull(G, row, f)) return false;
      }
    }
  return true;
}

size_t SweepPruner::run(size_t i, const Vec3& x, const std::vector<Motion>& motions, VoxelSet& G, size_t& outside,
                        Share* share) {
  const Vec3& y = cyl_[i - src_begin_];
  const double rho = y[0], phi = y[1], z = y[2];
  const size_t n = motions.size(), nc = cth_lo_.size(), ns = (nc + kSuper - 1) / kSuper;
  const size_t s_begin = share ? ns * share->part / share->parts : 0, s_end = share ? ns * (share->part + 1) / share->parts : ns;
  size_t moved = 0;
  for (size_t s = s_begin; s < s_end; ++s) {
    const size_t c0 = s * kSuper, c1 = std::min(nc, c0 + kSuper);
    if (rangeFull(G, rho, phi + sth_lo_[s], phi + sth_hi_[s], z + sdz_lo_[s], z + sdz_hi_[s])) continue;
    for (size_t c = c0; c < c1; ++c) {
      const size_t k0 = c * kChunk, k1 = std::min(n, k0 + kChunk);
      if (rangeFull(G, rho, phi + cth_lo_[c], phi + cth_hi_[c], z + cdz_lo_[c], z + cdz_hi_[c])) continue;
      for (size_t k = k0; k < k1; ++k) {  // the plain sweep's arithmetic: the same voxels
        const int64_t cell = G.cellOf(motions[k].apply(x));
        if (cell < 0) ++outside;
        else if (!share) G.insert(cell);
        else if (!G.testRelaxed(cell) && G.insertAtomic(cell)) ++share->inserted;
      }
      moved += k1 - k0;
    }
  }
  if (!share) pruned_ += n - moved;  // every step of the source is either moved or skipped
  return moved;
}

}  // namespace achain::reach_detail
