#include <achain/model/labels.hpp>

namespace achain {

std::string jointLabel(const Model& model, int i) {
  std::string label = "joint " + std::to_string(i + 1);
  if (i >= 0 && i < model.njoints()) label += " (" + model.joints[i].name + ")";
  return label;
}

std::string coordinateLabel(const Model& model, int i) {
  std::string label = "q" + std::to_string(i + 1);
  if (i >= 0 && i < static_cast<int>(model.coord_joint.size()) && model.coord_joint[i] >= 0)
    label += " (joint '" + model.joints[model.coord_joint[i]].name + "')";
  return label;
}

std::string linkName(const Model& model, int i) { return i < 0 ? "base_link" : model.joints[i].name + "_link"; }

}  // namespace achain
