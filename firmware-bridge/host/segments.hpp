// Host side of streaming: the shared sampled-trajectory JSON (schema "achain-trajectory", v1), its
// conversion into protocol segments (cubic Hermite pieces through the samples, fixed point), and
// the host's limit check — the same checkPiece() the controller runs, so the host never sends what
// the controller would refuse.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../protocol/protocol.hpp"

namespace achain {
namespace bridge {

struct SampledTrajectory {
  std::string robot;
  std::vector<std::string> joints;
  std::vector<double> t;                 // s, strictly increasing
  std::vector<std::vector<double>> q;    // [sample][joint], rad or m
  std::vector<std::vector<double>> qd;   // rad/s
  std::vector<std::vector<double>> qdd;  // rad/s² (optional in the file: then empty)
  int dof() const { return joints.empty() ? (q.empty() ? 0 : static_cast<int>(q[0].size())) : static_cast<int>(joints.size()); }
};

}  // namespace bridge
struct Trajectory;  // trajectory/trajectory.hpp
namespace bridge {

/// The core's sampled trajectory (samplePath) as the bridge's: rows per sample.
SampledTrajectory fromCore(const Trajectory& c);

/// Parses and validates; throws achain::Error naming the field (e.g. "q[12][3]: not a number").
SampledTrajectory trajectoryFromJson(const nlohmann::json& j);
nlohmann::json trajectoryToJson(const SampledTrajectory& t);

/// The thesis's rest-to-rest trapezoid (Robinson 2012, Sec. 3.8.7 / Fig. 3.27): θ_v 60° → 300°;
/// joints 1–3 at 720°/s² and 180°/s, joint 4 at 1430°/s² and 171°/s (Table 3.11), sampled every dt.
SampledTrajectory thesisTrapezoid(double dt = 0.001);

/// Cubic Hermite segments through the samples, each at least `segment_dt` long (samples in
/// between are skipped; the last sample is always kept). Ids start at first_id; the last segment
/// carries kSegLast; the first carries kSegBlend when `blend_first`. With `limits`, a piece whose
/// cubic would leave the limits (e.g. overshoot next to a stop between samples) is shortened, down
/// to consecutive samples, then cut where a joint comes to rest (splitAtRest), and any piece still
/// leaving the position limits gets shape-preserving velocities (preserveLimits), so interpolation
/// never adds a violation the plan does not have.
std::vector<Segment> buildSegments(const SampledTrajectory& tr, double segment_dt, uint32_t first_id = 1,
                                   bool blend_first = false, const std::vector<JointLimitsF>* limits = nullptr,
                                   double accel_margin = 1.5);

/// A piece between two samples in which one joint comes to rest (its end velocity is 0) or starts from
/// rest (its start velocity is 0) between the samples overshoots its end position with the sampled
/// velocities, e.g. a trapezoid stopping at a limit between samples. This cuts the piece where that
/// joint, decelerating uniformly, reaches rest (2·Δq/v from its moving end): the moving part is then
/// a parabola inside the samples, the other part holds; the other joints keep the same cubic, cut in
/// two. Returns false when no joint's overshoot is of that kind.
bool splitAtRest(const Segment& s, const std::vector<JointLimitsF>& limits, Segment& left, Segment& right);

/// Makes the segment fit limit-preserving (buildSegments calls it when given limits): a piece whose cubic
/// leaves the position limits although both its end samples are inside gets shape-preserving
/// (Fritsch–Carlson) knot velocities, so it stays between its end samples. Continuity is kept: a knot's
/// new velocity is written into both pieces that share it.
void preserveLimits(std::vector<Segment>& segs, const std::vector<JointLimitsF>& limits);

/// Host-side limit check of every piece; throws achain::Error naming the segment, joint and value. With
/// `angular` (one flag per joint, e.g. from the studio's model) the message is in the studio's units:
/// degrees for angular joints, metres for linear ones; without it, SI with "rad".
void checkSegments(const std::vector<Segment>& segs, const std::vector<JointLimitsF>& limits, double accel_margin,
                   const std::vector<bool>* angular = nullptr);

/// Checks every sample of the file, not only those the segments pass through: finite, position inside
/// the limits (1e-5 slack), |qd| ≤ v_max and, when given, |qdd| ≤ accel_margin·a_max (relative slack
/// 1e-6). Throws achain::Error naming the sample, its time, the joint and the value, in the caller's units
/// (`angular` as in checkSegments), so a bad file is refused before anything is streamed.
void checkSamples(const SampledTrajectory& tr, const std::vector<JointLimitsF>& limits, double accel_margin,
                  const std::vector<bool>* angular = nullptr);

/// Move-to-start (`achain send --approach`, the JS hosts' `approach` option): a synchronised trapezoid
/// from `q_from` (the controller's commanded position, at rest) to the plan's first knot, planned by the
/// core's planner (TrapezoidPath) at v_max and 0.6·a_max, sampled at 1 kHz and fitted into segments like
/// any plan (splitAtRest, Fritsch–Carlson), ending at rest exactly on the plan's start; the plan follows
/// with its times and ids shifted. The plan must start at rest (that is where the move ends); within
/// `tolerance` rad of the start no move is added. Throws achain::Error when the plan does not start at
/// rest or q_from is outside the limits.
std::vector<Segment> withApproach(const std::vector<Segment>& plan, const double* q_from,
                                  const std::vector<JointLimitsF>& limits, double segment_dt, double accel_margin,
                                  double tolerance);

/// Commanded position of a segment list at time t (s from the first segment's start), for comparisons.
void evaluateSegments(const std::vector<Segment>& segs, double t, double* q);

}  // namespace bridge
}  // namespace achain
