// A compiled plan for one signature: the traced graph after common-subexpression merging
// and dead-code removal, cut into steps. A step is one ordinary dispatch (an op the
// compiler does not fuse, or a lone elementwise op) or one fused elementwise group, whose
// kernel each backend compiles on first use.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compile/fused_group.h"
#include "compile/graph.h"

namespace vkt::detail {

class Plan {
 public:
  // `where`: the backend the signature's device-bound steps run on (the first input not on
  // the cpu, else the cpu); it decides whether reductions take elementwise prologues.
  Plan(Graph graph, Backend& where);
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  // Runs the plan on real inputs of the traced signature.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs);
  // The graph, its groups and steps (VKT_COMPILE_DUMP prints it).
  std::string describe() const;
  std::size_t fused_groups() const;

 private:
  struct Group {
    FusedGroup desc;
    std::vector<ValueRef> leaves;
    int root = -1;
    bool reduction = false;  // the root is a reduction; the other members its prologue
    bool rows = false;       // a row group (row_groups.cpp); row_shape its reductions' input
    Shape row_shape;
    std::vector<int> members;  // nodes in evaluation order (root last; a reduction's is one)
    std::vector<int> written;  // the root, then members that are plan outputs
    // A dot group (dot_groups.cpp): the dot node whose C the members' epilogue reads, and
    // the elementwise group it was made from (run after an ordinary dot where the backend
    // cannot fuse them).
    int dot = -1;
    std::unique_ptr<Group> epilogue;
    std::mutex mutex;
    std::map<Backend*, std::unique_ptr<FusedKernel>> kernels;  // null: runs unfused there
  };
  struct Step {
    bool fused = false;
    int index = -1;  // a node, or a group when fused
  };

  void merge_common_subexpressions();
  void build_groups(const std::vector<bool>& live);
  // value_of_member: group values members' args already have (a dot group's C).
  void build_group_description(Group& g, std::map<int, int> value_of_member = {});
  // Dot groups (dot_groups.cpp): an elementwise group that alone reads a dot's result takes
  // the dot in; per node, whether its step was folded into such a group.
  std::vector<bool> form_dot_groups(const std::vector<std::vector<std::pair<int, bool>>>& consumers,
                                    const std::vector<bool>& is_output);
  void build_dot_description(Group& g);
  // A dot group where its backend has no fused kernel: the dot, then the epilogue's group.
  void run_unfused_dot(Group& g, std::vector<Tensor>& values, Backend* device);
  // The group's value for leaf r, added once per key: a scalar literal is inlined, anything
  // else becomes one more leaf buffer (shared by plan.cpp and row_groups.cpp).
  int leaf_value(Group& g, std::map<std::string, int>& value_of_leaf, const ValueRef& r,
                 bool per_row) const;
  // Row groups (row_groups.cpp): per node, the row-local node set it belongs to (-1: none),
  // found before the other groups; sets list their nodes in graph order.
  std::vector<int> find_row_groups(const std::vector<bool>& live,
                                   std::vector<std::vector<int>>& sets) const;
  void build_row_description(Group& g);
  Tensor resolve(const ValueRef& ref, const std::vector<Tensor>& values) const;
  Tensor run_node(int node, std::vector<Tensor>& values, Backend* device) const;
  void run_group(Group& g, std::vector<Tensor>& values, Backend* device);
  FusedKernel* kernel_for(Group& g, Backend& b);
  void prepare_node(int index, Backend& b) const;
  void precompile(Backend& b);

  Graph graph_;
  std::vector<Tensor> constants_;  // per node: a constant's cpu tensor
  FusionCaps caps_;
  std::once_flag precompiled_;  // the device's kernels, compiled together on the first run
  std::vector<std::vector<int>> groups_of_;  // per node: groups evaluating it (recomputed)
  std::vector<int> root_of_;                 // per node: the group it roots, or -1
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<Step> steps_;
  std::vector<std::vector<int>> release_after_;  // per step: values no later step reads
};

}  // namespace vkt::detail
