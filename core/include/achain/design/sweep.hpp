// One design of a design space evaluated (its metrics, constraints, an error instead of an abort), and the Pareto
// front of a set of evaluated designs (docs/sweeps.md). A design runs on one thread with Data of its own; a sweep
// runs designs on many threads, and a design's record does not depend on which thread ran it or when.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <functional>

#include <achain/design/design_space.hpp>
#include <achain/math/progress.hpp>

namespace achain {

/// One metric's value: a number, or an array (one value per coordinate or per A-pair: names ending in "_joints").
struct DesignMetricValue {
  std::string name;
  std::vector<double> values;
  bool array = false;
};

struct DesignRecord {
  std::uint64_t design = 0;
  std::vector<double> parameters;          ///< designParameters(space, design)
  std::vector<DesignMetricValue> metrics;  ///< in designMetricNames order; empty when `error` is set
  bool feasible = false;                   ///< every constraint holds (false with an error)
  std::vector<std::string> violations;     ///< one line per constraint that fails
  std::string error;                       ///< "" = none; else why the robot or a metric failed
  double seconds = 0;                      ///< wall time of the evaluation (not part of a merged file)
};

/// Evaluates design k: builds its robot (io/design_json.hpp designRobot), computes every metric of the space,
/// checks them (finite) and the constraints. A robot that does not build or a metric that throws gives a record
/// with `error` set, not an exception; k ≥ space.count throws achain::Error.
DesignRecord evaluateDesign(const DesignSpace& space, std::uint64_t k);

/// The value of a named metric in a record; throws achain::Error naming it when the record has none (an error
/// record) or the index is past the array.
double designMetricValue(const DesignRecord& record, const DesignMetricRef& metric);

/// Sets record.feasible and record.violations from the space's constraints (a record with an error: infeasible,
/// no violations).
void checkDesignConstraints(const DesignSpace& space, DesignRecord& record);

/// The design indices on the Pareto front of the space's objectives among the feasible records without an error,
/// ascending: a design is on it when no other is at least as good in every objective and better in one (equal
/// designs are both on it). Empty when the space has no objectives.
std::vector<std::uint64_t> paretoFront(const DesignSpace& space, const std::vector<DesignRecord>& records);

/// What runDesigns did.
struct DesignRunSummary {
  std::uint64_t evaluated = 0;  ///< designs evaluated and recorded
  std::uint64_t errors = 0;     ///< of those, records with an error
  bool cancelled = false;       ///< stopped through the Progress before every design ran
  int threads = 1;              ///< threads used
};

/// Evaluates `designs` (indices into the space) on up to `threads` threads (0: every hardware thread; never more
/// than there are designs), each with evaluateDesign and a Data of its own. `record` is called once per evaluated
/// design, one call at a time, in completion order (so it may append to a file without a lock of its own).
/// `progress` is told the fraction of `designs` recorded, from the calling thread, before the first design starts,
/// about every 0.2 s and once at the end; when it says stop, no new design starts, the designs in flight finish and are recorded, and the summary is
/// marked cancelled. An exception from `record` or one that is not a design's own error (evaluateDesign's bad
/// index) stops the run the same way and is rethrown after the threads have joined. threads < 0 throws Error.
DesignRunSummary runDesigns(const DesignSpace& space, const std::vector<std::uint64_t>& designs, int threads,
                            const std::function<void(const DesignRecord&)>& record, const Progress& progress = {});

}  // namespace achain
