// Reachable workspace: Robinson's sweep vs Castelli vs Monte-Carlo, the thesis's prototype numbers,
// slicing/thread independence, outputs (sections, mesh, overlap), errors.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/reach/workspace.hpp>
#include "test_scale.hpp"
#include "workspace_test_support.hpp"

using namespace achain;
using test::scaled;
using test::thesis3R;

namespace {

// A mixed R/P/H/A chain.
Model mixedChain() {
  return modelFromJsonString(R"({"schema_version":1,"name":"mixed","units":{"length":"m","angle":"deg"},"joints":[
    {"kind":"A","side":0.3,"a":0.2,"d":0.1,"alpha":90,"limits":{"lower":60,"upper":300}},
    {"kind":"P","a":0.1,"alpha":-90,"limits":{"lower":0.0,"upper":0.3}},
    {"kind":"H","pitch":0.02,"a":0.15,"d":0.05,"alpha":30,"limits":{"lower":-90,"upper":120}}]})");
}
const Vec3 kGenericOrigin(0.0123, 0.0271, 0.0377);  // keeps lattice planes off the workspace's planar faces

WorkspaceResult run(const Model& m, WorkspaceMethod method, double voxel, double step_deg, const Vec3& origin,
                    Representative rep = Representative::Witness, int threads = 0, double samples = 4e6) {
  WorkspaceOptions o;
  o.voxel = voxel;
  o.method = method;
  o.step = step_deg * kDeg;
  o.origin = origin;
  o.representative = rep;
  o.threads = threads;
  o.samples = samples;
  return computeWorkspace(m, o);
}

bool sameBits(const VoxelSet& a, const VoxelSet& b) { return a.count() == b.count() && a.words() == b.words(); }

// Runs a job to the end in slices of random budgets (1 to max_budget evaluations), checking that the progress
// never decreases and reaches 1 only at the end; returns the number of slices.
int runSliced(WorkspaceJob& job, unsigned seed, double max_budget) {
  std::mt19937 rng(seed);
  double last = 0;
  int slices = 0;
  while (!job.run(std::uniform_real_distribution<double>(1, max_budget)(rng))) {
    const double p = job.progress();
    CHECK(p >= last);
    CHECK(p < 1.0);
    last = p;
    ++slices;
  }
  CHECK(job.progress() == 1.0);
  return slices;
}

}  // namespace

TEST_CASE("Workspace: one joint — Robinson and Castelli give the same voxels", "[workspace]") {
  for (const char* text : {R"({"schema_version":1,"name":"1r","units":{"length":"m","angle":"deg"},"joints":[{"kind":"R","a":10,"d":6,"limits":{"lower":60,"upper":300}}]})",
                           R"({"schema_version":1,"name":"1a","units":{"length":"m","angle":"deg"},"joints":[{"kind":"A","side":10,"a":10,"limits":{"lower":60,"upper":300}}]})"}) {
    const Model m = modelFromJsonString(text);
    const WorkspaceResult r = run(m, WorkspaceMethod::Robinson, 0.5, 0.5, kGenericOrigin);
    const WorkspaceResult c = run(m, WorkspaceMethod::Castelli, 0.5, 0.5, kGenericOrigin);
    CHECK(r.count() > 80);
    CHECK(voxelOverlap(r.voxels, c.voxels).both == c.count());
    CHECK(r.count() == c.count());
  }
}

TEST_CASE("Workspace: thesis 3R chain — Robinson, Castelli and Monte-Carlo agree", "[workspace]") {
  const Model m = thesis3R();
  // Reduced sizes (sanitizer builds): Castelli's grid at 2 deg (121^3 instead of 241^3 evaluations) and
  // half the Monte-Carlo samples, on the thesis's 0.5 voxel.
  const double cas_step = scaled(1.0, 2.0), mc_samples = scaled(4e6, 2e6);
  const WorkspaceResult rob = run(m, WorkspaceMethod::Robinson, 0.5, 0.5, kGenericOrigin);
  const WorkspaceResult cas = run(m, WorkspaceMethod::Castelli, 0.5, cas_step, kGenericOrigin);
  const WorkspaceResult mc = run(m, WorkspaceMethod::MonteCarlo, 0.5, 0, kGenericOrigin, Representative::Witness, 0, mc_samples);
  INFO("robinson " << rob.count() << ", castelli " << cas.count() << ", monte-carlo " << mc.count());
  // Thesis Table 3.2: new 14,897, Castelli 16,157 voxels (its grid alignment is not stated).
  CHECK(rob.count() == Approx(14897).epsilon(0.05));
  CHECK(cas.count() == Approx(14897).epsilon(0.05));
  // Every method marks only voxels that contain reachable points (witness representatives), so
  // they differ only in boundary voxels a sampler may miss: all within one voxel of each other,
  // and the overlap is most of the union.
  for (const auto* a : {&rob, &cas, &mc})
    for (const auto* b : {&rob, &cas, &mc}) {
      CHECK(voxelsNear(a->voxels, b->voxels, 1) == a->count());
      CHECK(voxelOverlap(a->voxels, b->voxels).jaccard() > 0.93);
    }
  // Castelli's cost is the product of the samples, Robinson's a sum over the sweeps.
  const uint64_t per_joint = static_cast<uint64_t>(std::lround(240 / cas_step)) + 1;  // 241 at 1 deg
  CHECK(cas.evaluations == per_joint * per_joint * per_joint);
  CHECK(rob.evaluations * 20 < 241u * 241u * 241u);  // Castelli's cost on the 1 deg grid
  // Our counts (docs/workspace.md, "Small chains"), to 1 %: Robinson 14,486, Castelli 14,682 at 1 deg (14,628 at 2 deg),
  // 14,485 (14,472) shared: Castelli's set holds Robinson's witness set but for 1 (14) voxels.
  const bool reduced = test::reducedSizes();
  CHECK(rob.count() == Approx(14486).epsilon(0.01));
  CHECK(cas.count() == Approx(reduced ? 14628 : 14682).epsilon(0.01));
  CHECK(voxelOverlap(rob.voxels, cas.voxels).both == Approx(reduced ? 14472 : 14485).epsilon(0.01));
  // Table 3.2's Castelli 16,157 and shared 13,977 (86 % of Castelli, 94 % of the new 14,897) are not reproduced on this
  // lattice: Castelli is 9 % below. With the thesis's centre representative the new method marks voxels no reachable
  // point touches, and the shared fractions come out as the thesis's: 13,832 voxels, 12,930 (12,899) shared with
  // Castelli, 88 % of Castelli's and 93.5 % of its own.
  CHECK(cas.count() < 0.95 * 16157);
  const WorkspaceResult centre = run(m, WorkspaceMethod::Robinson, 0.5, 0.5, kGenericOrigin, Representative::Centre);
  const size_t shared_centre = voxelOverlap(centre.voxels, cas.voxels).both;
  CHECK(centre.count() == Approx(13832).epsilon(0.01));
  CHECK(shared_centre == Approx(reduced ? 12899 : 12930).epsilon(0.01));
  CHECK(double(shared_centre) / double(centre.count()) == Approx(13977.0 / 14897).margin(0.01));
  CHECK(double(shared_centre) / double(cas.count()) == Approx(13977.0 / 16157).margin(0.03));
  // With voxel faces exactly on the workspace's planar faces (z = ±2), Castelli's exact grid angles put
  // points on the faces and rounding spreads them to both sides: a layer of extra voxels (explained in docs).
  const WorkspaceResult cas0 = run(m, WorkspaceMethod::Castelli, 0.5, cas_step, Vec3::Zero());
  const WorkspaceResult mc0 = run(m, WorkspaceMethod::MonteCarlo, 0.5, 0, Vec3::Zero(), Representative::Witness, 0, mc_samples);
  Vec3 lo, hi;
  REQUIRE(mc0.voxels.bounds(lo, hi));
  CHECK(lo.z() == Approx(-2.0));
  CHECK(hi.z() == Approx(2.0));
  CHECK(cas0.count() > mc0.count() * 1.1);
  // Castelli at origin 0: 14,850 at 1 deg (14,801 at 2 deg), 11 % above Robinson's 13,329 on that lattice (the thesis: 8.5 %).
  CHECK(cas0.count() == Approx(reduced ? 14801 : 14850).epsilon(0.01));
}

TEST_CASE("Workspace: mixed R/P/H/A chain — the three methods agree", "[workspace]") {
  const Model m = mixedChain();
  const double h = 0.04;
  const WorkspaceResult rob = run(m, WorkspaceMethod::Robinson, h, 1.0, kGenericOrigin * 0.04);
  WorkspaceOptions o;
  o.voxel = h;
  o.origin = kGenericOrigin * 0.04;
  o.method = WorkspaceMethod::Castelli;
  o.step = scaled(1.0, 2.0) * kDeg;   // reduced sizes: a grid 8x coarser, still well under a voxel per step
  o.step_linear = scaled(0.002, 0.004);
  const WorkspaceResult cas = computeWorkspace(m, o);
  const WorkspaceResult mc = run(m, WorkspaceMethod::MonteCarlo, h, 0, kGenericOrigin * 0.04, Representative::Witness, 0,
                                 scaled(4e6, 2e6));
  INFO("robinson " << rob.count() << ", castelli " << cas.count() << ", monte-carlo " << mc.count());
  CHECK(rob.count() > 1000);
  for (const auto* a : {&rob, &cas, &mc})
    for (const auto* b : {&rob, &cas, &mc}) {
      CHECK(voxelsNear(a->voxels, b->voxels, 1) == a->count());
      CHECK(voxelOverlap(a->voxels, b->voxels).jaccard() > 0.9);
    }
  // Every FK sample lands in a Robinson voxel or next to one.
  std::mt19937 rng(3);
  Data d(m);
  for (int k = 0; k < 2000; ++k) {
    forwardKinematics(m, d, test::randomConfiguration(m, rng));
    const Vec3i g = ((d.oMtool.p - rob.voxels.origin()) / h).array().floor().cast<int>();
    bool near = false;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) near |= rob.voxels.containsLattice(g + Vec3i(dx, dy, dz));
    CHECK(near);
  }
}

TEST_CASE("Workspace: prototype 4A-chain at 0.5 in against the thesis (487,640 voxels ≈ 60,955 in³)", "[workspace]") {
  const Model m = builtinModel("prototype-4a");
  // Reduced sizes (sanitizer builds): the thesis's 1 in lattice (60,416 voxels) takes the 0.5 in one's place.
  const bool reduced = test::reducedSizes();
  const double h = (reduced ? 1.0 : 0.5) * test::kInch;
  const WorkspaceResult w = run(m, WorkspaceMethod::Robinson, h, 0, Vec3::Zero());
  INFO("voxels " << w.count());
  CHECK(w.count() == Approx(reduced ? 60416 : 487640).epsilon(0.10));
  CHECK(w.volume() == Approx(w.count() * h * h * h).epsilon(1e-12));
  CHECK(w.volume() / std::pow(test::kInch, 3) == Approx(60955).epsilon(0.10));
  // Bounding box (reference digest): x, y ∈ ±25.71 in, z ∈ [−9.42, 38.657] in; voxel faces enclose it.
  Vec3 lo, hi;
  REQUIRE(w.voxels.bounds(lo, hi));
  const Vec3 ref_lo(-25.71, -25.71, -9.42), ref_hi(25.71, 25.71, 38.657);
  for (int a = 0; a < 3; ++a) {
    CHECK(lo[a] <= ref_lo[a] * test::kInch + 0.01 * test::kInch);
    CHECK(lo[a] > ref_lo[a] * test::kInch - h);
    CHECK(hi[a] >= ref_hi[a] * test::kInch - 0.01 * test::kInch);
    CHECK(hi[a] < ref_hi[a] * test::kInch + h);
  }
  // The thesis's centre representative drifts outward (up to half a voxel diagonal per sweep):
  // more voxels than the reachable-point representative; near/far corners bracket it.
  const WorkspaceResult c = run(m, WorkspaceMethod::Robinson, h, 0.5, Vec3::Zero(), Representative::Centre);
  const WorkspaceResult nr = run(m, WorkspaceMethod::Robinson, h, 0.5, Vec3::Zero(), Representative::NearCorner);
  const WorkspaceResult fr = run(m, WorkspaceMethod::Robinson, h, 0.5, Vec3::Zero(), Representative::FarCorner);
  CHECK(c.count() > w.count());
  CHECK(nr.count() < c.count());
  CHECK(fr.count() > c.count());
  // 1 in voxels: thesis 60,416 (w itself at reduced sizes).
  if (!reduced) {
    const WorkspaceResult w1 = run(m, WorkspaceMethod::Robinson, 2 * h, 0, Vec3::Zero());
    CHECK(w1.count() == Approx(60416).epsilon(0.10));
  }
}

TEST_CASE("Workspace: ρ = 0 A-pairs give exactly the R-chain's voxels", "[workspace]") {
  nlohmann::json j = modelToJson(builtinModel("prototype-4r"));
  nlohmann::json a = j;
  for (auto& jj : a["joints"]) {
    jj["kind"] = "A";
    jj["rho"] = 0.0;
  }
  const Model r = modelFromJson(j), z = modelFromJson(a);
  const WorkspaceResult wr = run(r, WorkspaceMethod::Robinson, 0.0254, 0, Vec3::Zero());
  const WorkspaceResult wz = run(z, WorkspaceMethod::Robinson, 0.0254, 0, Vec3::Zero());
  CHECK(wr.count() > 10000);
  CHECK(sameBits(wr.voxels, wz.voxels));
}

TEST_CASE("Workspace: results do not depend on slicing or thread count", "[workspace]") {
  const Model m = builtinModel("prototype-4a");
  for (Representative rep : {Representative::Witness, Representative::Centre}) {
    WorkspaceOptions o;
    o.voxel = scaled(0.0254, 0.0508);
    o.representative = rep;
    o.threads = 1;
    const WorkspaceResult one = computeWorkspace(m, o);
    o.threads = 3;
    const WorkspaceResult three = computeWorkspace(m, o);
    CHECK(sameBits(one.voxels, three.voxels));
    WorkspaceJob job(m, o);
    CHECK(runSliced(job, 5, scaled(5e4, 1e4)) > 10);
    CHECK(sameBits(job.result().voxels, one.voxels));
    CHECK(job.result().evaluations == one.evaluations);
  }
  for (WorkspaceMethod method : {WorkspaceMethod::Castelli, WorkspaceMethod::MonteCarlo}) {
    WorkspaceOptions o;
    o.voxel = 0.5;
    o.method = method;
    o.step = scaled(3.0, 5.0) * kDeg;
    o.samples = scaled(3e5, 1e5);
    o.threads = 1;
    const Model t = thesis3R();
    const WorkspaceResult one = computeWorkspace(t, o);
    o.threads = 4;
    const WorkspaceResult four = computeWorkspace(t, o);
    CHECK(sameBits(one.voxels, four.voxels));
    WorkspaceJob job(t, o);
    while (!job.run(12345)) {
    }
    CHECK(sameBits(job.result().voxels, one.voxels));
  }
}

TEST_CASE("Workspace: progress and cancellation", "[workspace]") {
  const Model m = builtinModel("prototype-4a");
  WorkspaceOptions o;
  o.voxel = scaled(0.0127, 0.0254);
  std::vector<double> seen;
  WorkspaceJob job(m, o);
  const bool finished = job.runAll([&](double f) {
    seen.push_back(f);
    return false;
  });
  CHECK_FALSE(finished);
  CHECK(job.cancelled());
  CHECK(job.done());
  CHECK(seen.size() == 1);
  CHECK(seen[0] > 0);
  CHECK(seen[0] < 1);
  CHECK(job.result().evaluations < 9e6);
  std::atomic<bool> stop{true};
  WorkspaceJob job2(m, o);
  CHECK_FALSE(job2.runAll(Progress(&stop)));
  CHECK(job2.result().evaluations == 0);
  std::vector<double> all;
  const WorkspaceResult full = computeWorkspace(m, o, [&](double f) {
    all.push_back(f);
    return true;
  });
  REQUIRE(all.size() >= 2);
  CHECK(std::is_sorted(all.begin(), all.end()));
  CHECK(all.back() == 1.0);
  CHECK_FALSE(full.cancelled);
}

TEST_CASE("Workspace: thesis §3.5.1 — 1R and 1A curves share voxels only near θ = 94.59° and 265.41°", "[workspace]") {
  const Model r = modelFromJsonString(R"({"schema_version":1,"name":"1r","units":{"length":"m","angle":"deg"},"joints":[{"kind":"R","a":10,"d":6,"limits":{"lower":60,"upper":300}}]})");
  const Model a = modelFromJsonString(R"({"schema_version":1,"name":"1a","units":{"length":"m","angle":"deg"},"joints":[{"kind":"A","side":10,"a":10,"limits":{"lower":60,"upper":300}}]})");
  const WorkspaceResult wr = run(r, WorkspaceMethod::Robinson, 0.5, 0.5, kGenericOrigin);
  const WorkspaceResult wa = run(a, WorkspaceMethod::Robinson, 0.5, 0.5, kGenericOrigin);
  const VoxelOverlap ov = voxelOverlap(wr.voxels, wa.voxels);
  CHECK(ov.both >= 2);
  CHECK(ov.both <= 12);  // thesis: 6
  const double rho = apairRhoFromSide(10), th = 2 * std::asin(6 / rho);
  CHECK(th / kDeg == Approx(94.59).margin(0.01));
  const VoxelSet shared = voxelIntersection(wr.voxels, wa.voxels);
  shared.forEach([&](int64_t c) {
    const Vec3 p = shared.centre(c);
    const double ang = std::atan2(p.y(), p.x());
    const double d1 = std::abs(std::remainder(ang - th, 2 * kPi)), d2 = std::abs(std::remainder(ang + th, 2 * kPi));
    CHECK(std::min(d1, d2) * 10 < 4 * 0.5);  // within 4 voxels of a crossing along the arc (shallow crossing)
    CHECK(p.z() == Approx(6).margin(0.75));
  });
}

TEST_CASE("Workspace outputs: section of a planar arm, closed surface mesh, centres", "[workspace]") {
  const Model m = builtinModel("planar-2r");
  const double h = 0.01;
  const WorkspaceResult w = run(m, WorkspaceMethod::Robinson, h, 0, Vec3(0, 0, -0.5 * h));
  // Planar: a single layer; its area is the annulus swept by the 2R arm with |elbow| ≤ 170°.
  Vec3i lo, hi;
  REQUIRE(w.voxels.latticeBounds(lo, hi));
  CHECK(lo.z() == hi.z());
  const VoxelSection s = voxelSection(w.voxels, 2, 0.0);
  CHECK(s.count == w.count());
  CHECK(s.coordinate == Approx(0.0).margin(1e-15));
  const double rmin = std::sqrt(1 + 0.64 + 1.6 * std::cos(170 * kDeg));
  const double area = kPi * (1.8 * 1.8 - rmin * rmin);
  CHECK(s.area() == Approx(area).epsilon(0.03));
  CHECK(voxelSection(w.voxels, 2, 0.02).count == 0);
  // y = 0 section through a 3-D workspace: a slab of the prototype.
  const WorkspaceResult p = run(builtinModel("prototype-4a"), WorkspaceMethod::Robinson, 0.0254, 0, Vec3::Zero());
  const VoxelSection y0 = voxelSection(p.voxels, 1, 0.001);
  CHECK(y0.u_axis == 0);
  CHECK(y0.v_axis == 2);
  size_t direct = 0;
  p.voxels.forEach([&](int64_t c) { direct += p.voxels.lattice(c).y() == 0; });
  CHECK(y0.count == direct);

  // Surface mesh: closed (every edge in exactly two triangles) and its enclosed volume is the voxel volume.
  const VoxelMesh mesh = voxelSurfaceMesh(p.voxels);
  std::map<std::pair<uint32_t, uint32_t>, int> edges;
  double vol = 0;
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    Vec3 v[3];
    for (int k = 0; k < 3; ++k) {
      const uint32_t i = mesh.indices[t + k], j = mesh.indices[t + (k + 1) % 3];
      edges[{std::min(i, j), std::max(i, j)}]++;
      v[k] = Vec3(mesh.positions[3 * i], mesh.positions[3 * i + 1], mesh.positions[3 * i + 2]).cast<double>();
    }
    vol += v[0].dot(v[1].cross(v[2])) / 6;
  }
  for (const auto& e : edges) CHECK(e.second % 2 == 0);
  CHECK(vol == Approx(p.volume()).epsilon(1e-4));
  const std::vector<float> all = voxelCentres(p.voxels, false), surf = voxelCentres(p.voxels, true);
  CHECK(all.size() == 3 * p.count());
  CHECK(surf.size() == 3 * surfaceVoxelCount(p.voxels));
  CHECK(surf.size() < all.size());
}

TEST_CASE("Workspace: A-chain vs its R twin (thesis §3.5) on one lattice", "[workspace]") {
  const WorkspaceResult a = run(builtinModel("prototype-4a"), WorkspaceMethod::Robinson, 0.0254, 0, Vec3::Zero());
  const WorkspaceResult r = run(builtinModel("prototype-4r"), WorkspaceMethod::Robinson, 0.0254, 0, Vec3::Zero());
  const VoxelOverlap ov = voxelOverlap(a.voxels, r.voxels);
  CHECK(ov.a == a.count());
  CHECK(ov.b == r.count());
  CHECK(ov.both == voxelIntersection(a.voxels, r.voxels).count());
  CHECK(ov.both == voxelOverlap(r.voxels, a.voxels).both);
  CHECK(ov.both < std::min(ov.a, ov.b));
  CHECK(ov.either == ov.a + ov.b - ov.both);
  // The A-chain reaches 13 + 12 + 8 + ρ = 38.657 in high, the R twin 13 − ρ + 12 + 8 = 27.34 in (d1 = 13 − ρ).
  Vec3 alo, ahi, rlo, rhi;
  a.voxels.bounds(alo, ahi);
  r.voxels.bounds(rlo, rhi);
  CHECK(ahi.z() == Approx(38.657 * test::kInch).margin(0.0254));
  CHECK(rhi.z() == Approx((33 - 4 * std::sqrt(2.0)) * test::kInch).margin(0.0254));
  WorkspaceOptions o;
  o.voxel = 0.02;
  const WorkspaceResult other = computeWorkspace(builtinModel("prototype-4r"), o);
  CHECK_THROWS_WITH(voxelOverlap(a.voxels, other.voxels), Catch::StartsWith("overlap: the two workspaces use different voxel sizes"));
}

TEST_CASE("Workspace: errors name the option", "[workspace][errors]") {
  const Model m = builtinModel("prototype-4a");
  WorkspaceOptions o;
  CHECK_THROWS_WITH(WorkspaceJob(m, o), Catch::StartsWith("voxel: must be a positive"));
  o.voxel = 0.0127;
  o.step = -1;
  CHECK_THROWS_WITH(WorkspaceJob(m, o), Catch::StartsWith("step: must be ≥ 0"));
  o.step = 0;
  o.voxel = 1e-5;
  CHECK_THROWS_WITH(WorkspaceJob(m, o), Catch::StartsWith("voxel: 1e-05 m needs a grid of"));
  o.voxel = 0.0127;
  o.method = WorkspaceMethod::Castelli;
  CHECK_THROWS_WITH(WorkspaceJob(m, o), Catch::StartsWith("step: ") && Catch::Contains("robinson"));
  o.method = WorkspaceMethod::Robinson;
  o.refine = 0;
  CHECK_THROWS_WITH(WorkspaceJob(m, o), Catch::StartsWith("refine:"));
  o.refine = 1;
  const Model p = modelFromJsonString(R"({"schema_version":1,"name":"p","joints":[{"kind":"P"}]})");
  CHECK_THROWS_WITH(WorkspaceJob(p, o), Catch::StartsWith("joints[0].limits: the workspace needs finite"));
  CHECK_THROWS_WITH(workspaceMethodFromString("fast"), Catch::StartsWith("method: unknown 'fast'"));
  CHECK_THROWS_WITH(representativeFromString("middle"), Catch::StartsWith("representative: unknown"));
  // An unbounded revolute joint sweeps one full turn.
  const Model r = modelFromJsonString(R"({"schema_version":1,"name":"r","joints":[{"kind":"R","a":1}]})");
  o.voxel = 0.05;
  const WorkspaceResult w = computeWorkspace(r, o);
  REQUIRE(w.sweeps.size() == 1);
  CHECK(w.sweeps[0].upper - w.sweeps[0].lower == Approx(2 * kPi));
  // A ring of touched voxels: a voxel holds at most √2·h of the circle, and a ring crosses ≲ 1.27 voxels per h.
  CHECK(w.count() >= 2 * kPi / (std::sqrt(2.0) * 0.05));
  CHECK(w.count() <= 1.3 * 2 * kPi / 0.05);
}

TEST_CASE("Workspace: the estimate before a job, and the caps it is checked against (issue 17)", "[workspace][caps]") {
  const Model m = thesis3R();
  WorkspaceOptions o;  // the thesis 3R chain is in inches: 0.5 is the thesis's voxel (14,897 voxels)
  o.voxel = 2;
  o.threads = 1;
  // Castelli and Monte-Carlo: the estimate's evaluations are the job's exactly
  for (const WorkspaceMethod method : {WorkspaceMethod::Castelli, WorkspaceMethod::MonteCarlo}) {
    o.method = method;
    o.samples = 2e5;
    const WorkspaceEstimate e = estimateWorkspace(m, o);
    const WorkspaceResult r = computeWorkspace(m, o);
    CHECK(e.evaluations == double(r.evaluations));
    CHECK(e.cells == double(r.voxels.cells()));
    CHECK(e.voxels >= double(r.count()));  // an upper estimate of the filled voxels
    CHECK(e.seconds == Approx(e.evaluations / kWorkspaceFkRate));
  }
  // Robinson: the grid exactly; the evaluations and the filled voxels (from two pilot runs) within 2x
  o.method = WorkspaceMethod::Robinson;
  for (const double voxel : {2.0, 1.0, 0.5}) {
    o.voxel = voxel;
    const WorkspaceEstimate e = estimateWorkspace(m, o);
    const WorkspaceResult r = computeWorkspace(m, o);
    INFO("voxel " << voxel << ": estimated " << e.evaluations << " evaluations, " << e.voxels << " voxels; ran " << r.evaluations
                  << ", " << r.count());
    CHECK(e.cells == double(r.voxels.cells()));
    CHECK(e.evaluations > 0.5 * double(r.evaluations));
    CHECK(e.evaluations < 2 * double(r.evaluations));
    CHECK(e.voxels > 0.5 * double(r.count()));
    CHECK(e.voxels < 2 * double(r.count()));
    CHECK(e.bytes >= e.cells / 8);
  }
  // past a cap: refused before anything is allocated, naming the cap; raised, the same job runs
  o.voxel = 0.5;
  const WorkspaceEstimate e = estimateWorkspace(m, o);
  WorkspaceOptions capped = o;
  capped.max_evaluations = e.evaluations / 2;
  CHECK_THROWS_WITH(WorkspaceJob(m, capped), Catch::Matchers::StartsWith("voxel: about") &&
                                                 Catch::Matchers::Contains("cap max_evaluations"));
  capped = o;
  capped.max_bytes = e.bytes / 2;
  CHECK_THROWS_WITH(WorkspaceJob(m, capped), Catch::Matchers::Contains("(estimate; cap max_bytes"));
  capped = o;
  capped.max_cells = e.cells / 2;
  CHECK_THROWS_WITH(WorkspaceJob(m, capped), Catch::Matchers::Contains("cap max_cells"));
  capped.max_cells = e.cells;  // raised to the need: runs
  CHECK_NOTHROW(WorkspaceJob(m, capped));
  // the estimate itself never refuses (it is how a caller learns the cost of a capped job)
  capped.max_evaluations = 1;
  CHECK(estimateWorkspace(m, capped).evaluations == e.evaluations);
  // nonsense voxels and caps are named
  o.voxel = 1e300;
  CHECK_THROWS_WITH(estimateWorkspace(m, o), Catch::Matchers::StartsWith("voxel: 1e+300 m is past the physical range"));
  o.voxel = 0.5;
  o.max_bytes = std::nan("");
  CHECK_THROWS_WITH(estimateWorkspace(m, o), Catch::Matchers::StartsWith("max_bytes: must be > 0"));
}

// ---- The pruned last sweep (issue 16 item 3): the same voxels as the plain sweep, bit for bit.

TEST_CASE("Workspace: detail::floorToInt (VoxelSet::cellOf) is std::floor", "[workspace][prune]") {
  for (double x : {0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.999999999999999, -2.000000000000001, 1e-300, -1e-300,
                   4503599627370495.5, -4503599627370495.5, 9007199254740993.0, -9007199254740993.0, 1e15 + 0.25, -1e15 - 0.25})
    CHECK(detail::floorToInt(x) == int64_t(std::floor(x)));
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1e6, 1e6);
  for (int i = 0; i < 100000; ++i) {
    const double x = u(rng);
    REQUIRE(detail::floorToInt(x) == int64_t(std::floor(x)));
  }
}

namespace {
struct PruneCase {
  const char* name;
  Model model;
  WorkspaceOptions options;
  double min_pruned = 0;  // fraction of the last sweep's points pruned, at least
};
// The case run plain (never pruned).
WorkspaceResult plainRun(const PruneCase& c) {
  WorkspaceOptions o = c.options;
  o.prune_above = std::numeric_limits<double>::infinity();
  return computeWorkspace(c.model, o);
}
// The pruned run set exactly the plain run's voxels and reports the plain run's counts (pruned: the last sweep's).
void checkSameAsPlain(const WorkspaceResult& plain, const WorkspaceResult& pruned) {
  INFO("voxels " << plain.count() << ", evaluations " << plain.evaluations << ", pruned " << pruned.pruned);
  CHECK(plain.count() > 1000);
  CHECK(sameBits(plain.voxels, pruned.voxels));
  CHECK(pruned.count() == plain.count());
  CHECK(plain.evaluations == pruned.evaluations);
  CHECK(plain.outside == pruned.outside);
  CHECK(plain.pruned == 0);
  CHECK(pruned.pruned == pruned.sweeps.back().pruned);
  CHECK(pruned.pruned < pruned.sweeps.back().evaluations);
}
WorkspaceOptions pruneOptions(double voxel, const Vec3& origin = Vec3::Zero(), Representative rep = Representative::Witness) {
  WorkspaceOptions o;
  o.voxel = voxel;
  o.origin = origin;
  o.representative = rep;
  o.threads = 1;
  return o;
}
}  // namespace

TEST_CASE("Workspace: the pruned last sweep sets exactly the plain sweep's voxels", "[workspace][prune]") {
  // A chain whose base joint is prismatic and tilted (a general axis, no rotation in the last sweep), and one
  // whose base frame is turned so the base joint's axis is not a world axis.
  const Model tilted_p = modelFromJsonString(R"({"schema_version":1,"name":"tp","units":{"length":"m","angle":"deg"},
    "base":{"xyz":[0.05,-0.02,0.1],"rpy":[20,-35,10]},"joints":[
    {"kind":"P","a":0.1,"alpha":90,"limits":{"lower":0.0,"upper":0.25}},
    {"kind":"R","a":0.3,"d":0.05,"alpha":-90,"limits":{"lower":-150,"upper":150}},
    {"kind":"R","a":0.2,"limits":{"lower":-120,"upper":120}}]})");
  const Model tilted_a = modelFromJsonString(R"({"schema_version":1,"name":"ta","units":{"length":"m","angle":"deg"},
    "base":{"xyz":[0,0,0],"rpy":[40,25,-60]},"joints":[
    {"kind":"A","side":0.3,"a":0.2,"d":0.1,"alpha":90,"limits":{"lower":60,"upper":300}},
    {"kind":"R","a":0.25,"alpha":-90,"limits":{"lower":-170,"upper":170}},
    {"kind":"H","pitch":0.02,"a":0.15,"d":0.05,"alpha":30,"limits":{"lower":-90,"upper":120}}]})");
  std::vector<PruneCase> cases = {
      // 0.5 in (the thesis's voxel): the default options on the prototype and the PUMA's wrist centre
      {"prototype-4a 0.5 in", builtinModel("prototype-4a"), pruneOptions(scaled(0.0127, 0.0254)), 0.05},
      {"puma560 0.5 in", builtinModel("puma560"), pruneOptions(scaled(0.0127, 0.0254)), 0.05},
      {"prototype-4r 0.5 in, centre", builtinModel("prototype-4r"), pruneOptions(scaled(0.0127, 0.0254), Vec3::Zero(), Representative::Centre), 0.05},
      // thin sets (surfaces, slabs a few voxels thick) leave few bins full: little is pruned, the voxels are the same
      {"thesis 3R, generic lattice", thesis3R(), pruneOptions(0.5, kGenericOrigin)},
      {"mixed R/P/H/A", mixedChain(), pruneOptions(0.01, kGenericOrigin)},
      {"tilted prismatic base", tilted_p, pruneOptions(0.01, kGenericOrigin)},
      // at 0.01 this chain moves 0.9 G points (a minute natively, 12 under the sanitizers)
      {"turned A-pair base", tilted_a, pruneOptions(scaled(0.02, 0.03), kGenericOrigin, Representative::FarCorner)},
  };
  for (PruneCase& c : cases) {
    INFO(c.name);
    const WorkspaceResult plain = plainRun(c);
    WorkspaceOptions o = c.options;
    o.prune_above = 0;
    const WorkspaceResult pruned = computeWorkspace(c.model, o);
    checkSameAsPlain(plain, pruned);
    // a pruned point is one that could not add a voxel; the volumes of the robots prune a good part
    CHECK(double(pruned.pruned) >= c.min_pruned * double(pruned.sweeps.back().evaluations));
  }
}

TEST_CASE("Workspace: the pruned last sweep on threads sets exactly the plain sweep's voxels", "[workspace][prune]") {
  // The threads share one pruner and read the set as the others fill it: a bin read as full is full (the set
  // only grows), so the voxels cannot depend on the threads; only the pruned count can.
  std::vector<PruneCase> cases = {
      {"prototype-4a", builtinModel("prototype-4a"), pruneOptions(scaled(0.0127, 0.0254))},
      {"mixed R/P/H/A", mixedChain(), pruneOptions(scaled(0.01, 0.02), kGenericOrigin)},
      {"puma560, centre", builtinModel("puma560"), pruneOptions(scaled(0.0127, 0.0254), Vec3::Zero(), Representative::Centre)},
  };
  for (PruneCase& c : cases) {
    INFO(c.name);
    const WorkspaceResult plain = plainRun(c);
    WorkspaceOptions o = c.options;
    o.prune_above = 0;
    for (int threads : {2, 3}) {
      INFO(threads << " threads");
      o.threads = threads;
      const WorkspaceResult pruned = computeWorkspace(c.model, o);
      CHECK(pruned.threads == threads);
      checkSameAsPlain(plain, pruned);
      CHECK(pruned.pruned > 0);
    }
  }
}

TEST_CASE("Workspace: pruned vs plain at 0.25 in — the same voxels, a fraction of the points moved", "[workspace][prune]") {
  // 0.25 in on the prototype (4.05 M voxels, 110 M point moves); 0.5 in under ACHAIN_TEST_SCALE=reduced.
  const Model m = builtinModel("prototype-4a");
  WorkspaceOptions o = pruneOptions(scaled(0.00635, 0.0127));
  o.prune_above = std::numeric_limits<double>::infinity();
  const WorkspaceResult plain = computeWorkspace(m, o);
  o.prune_above = scaled(WorkspaceOptions().prune_above, 0.0);  // the default prunes a sweep this large
  const WorkspaceResult pruned = computeWorkspace(m, o);
  INFO("voxels " << plain.count() << " / " << pruned.count() << ", evaluations " << plain.evaluations << ", pruned " << pruned.pruned);
  CHECK(plain.count() == scaled<size_t>(4050598, 510172));
  CHECK(sameBits(plain.voxels, pruned.voxels));
  CHECK(pruned.evaluations == plain.evaluations);
  CHECK(double(pruned.pruned) > scaled(0.4, 0.05) * double(plain.evaluations));
}

TEST_CASE("Workspace: prune_above is checked, and small last sweeps run plain by default", "[workspace][prune][errors]") {
  const Model m = builtinModel("planar-2r");
  WorkspaceOptions o;
  o.voxel = 0.05;
  for (double bad : {-1.0, std::nan("")}) {
    o.prune_above = bad;
    CHECK_THROWS_WITH(computeWorkspace(m, o), Catch::Contains("prune_above: must be ≥ 0"));
    CHECK_THROWS_WITH(estimateWorkspace(m, o), Catch::Contains("prune_above"));
  }
  o.prune_above = WorkspaceOptions().prune_above;
  CHECK(computeWorkspace(m, o).pruned == 0);  // a few thousand points: below the default threshold
}

TEST_CASE("Workspace: the pruned sweep keeps slicing, progress and cancellation", "[workspace][prune]") {
  const Model m = builtinModel("prototype-4a");
  WorkspaceOptions o;
  o.voxel = scaled(0.0254, 0.0508);
  o.prune_above = 0;  // prune whatever the size
  o.threads = 1;      // (on threads the pruned count varies from run to run; the voxels do not)
  const WorkspaceResult all = computeWorkspace(m, o);
  CHECK(all.pruned > 0);
  WorkspaceJob job(m, o);
  CHECK(runSliced(job, 7, 2e4) > 10);
  CHECK(sameBits(job.result().voxels, all.voxels));
  CHECK(job.result().evaluations == all.evaluations);
  CHECK(job.result().pruned == all.pruned);
  // cancelled half-way, inside the pruned last sweep (96 % of the work): a partial result
  WorkspaceJob cut(m, o);
  while (!cut.run(5e3) && cut.progress() < 0.5) {
  }
  CHECK_FALSE(cut.done());
  cut.cancel();
  CHECK(cut.cancelled());
  CHECK(cut.done());
  CHECK(cut.run(1e6));  // a cancelled job does no more work
  CHECK(cut.result().evaluations < all.evaluations);
  CHECK(cut.result().count() <= all.count());
}

TEST_CASE("Workspace: method and representative names, one spelling each (the words toString writes)", "[workspace]") {
  for (WorkspaceMethod m : {WorkspaceMethod::Robinson, WorkspaceMethod::Castelli, WorkspaceMethod::MonteCarlo})
    CHECK(workspaceMethodFromString(toString(m)) == m);
  for (Representative r : {Representative::Centre, Representative::Witness, Representative::NearCorner, Representative::FarCorner})
    CHECK(representativeFromString(toString(r)) == r);
  // the second spellings accepted before issue 31
  CHECK_THROWS_WITH(workspaceMethodFromString("monte-carlo"), "method: unknown 'monte-carlo' (expected robinson, castelli or montecarlo)");
  for (const char* old : {"center", "near-corner", "far-corner"})
    CHECK_THROWS_WITH(representativeFromString(old), Catch::Contains("(expected centre, witness, near or far)"));
}
