// JSON summaries of the differential-kinematics area, shared by the CLI and the wasm API so both
// print the same numbers with the same names (+inf is written as null).
#pragma once
#include <nlohmann/json.hpp>

#include <achain/model/data.hpp>

namespace achain {

/// {singular_values, sigma_min, sigma_max, condition, inverse_condition, yoshikawa, rank, rank_tolerance,
///  linear: {…, velocity_ellipsoid, force_ellipsoid}, angular: {…, velocity_ellipsoid, moment_ellipsoid},
///  singularities: [{kind, joints, measure, description}], length_scale} of the tool Jacobian (base frame),
/// after forwardKinematics().
nlohmann::json manipulabilityReport(const Model& model, const Data& data, double tol = 1e-6);

/// [{kind, joints, measure, description}] (detectSingularities).
nlohmann::json singularitiesJson(const Model& model, const Data& data, double tol = 1e-6);

}  // namespace achain
