// Conformance of the whole-model runners (docs/models.md) on the ONNX backend
// node tests of Debian's libonnx-testdata, for every supported operator:
// the FP32 reference runner and the exact runner (rounded to double) against
// the expected outputs within the backend tests' tolerances (rtol 1e-3,
// atol 1e-7). A missing directory is a failure, not a skip.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <symerr/onnx/model.hpp>
#include <symerr/onnx/tensor_proto.hpp>

#include <onnx/onnx_pb.h>

using namespace symerr;
namespace so = symerr::onnx;
namespace fs = std::filesystem;

namespace {

const fs::path kNodeDir = "/usr/share/libonnx-testdata/data/node";

template <class T>
void compare(const std::string& what, const Tensor<T>& got, const Tensor<float>& want) {
  REQUIRE(got.shape() == want.shape());
  std::size_t bad = 0;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const double g = static_cast<double>(got[k]), w = want[k];
    if (!(std::fabs(g - w) <= 1e-7 + 1e-3 * std::fabs(w)) && bad++ < 3)
      FAIL_CHECK(what << " element " << k << ": " << g << ", expected " << w);
  }
  CHECK(bad == 0);
}

// The model of a node test with its data set's operands that symerr takes as
// constants (every non-FLOAT input: axes, pads, indices, conditions; and the
// FLOAT inputs listed in `fold`, e.g. Pow's exponent) made initializers; the
// remaining graph inputs' positions in the data set.
so::Graph with_constant_operands(const fs::path& dir, const fs::path& ds, const std::vector<int>& fold,
                                 std::vector<int>& kept) {
  ::onnx::ModelProto m;
  const std::string bytes = so::read_file(dir / "model.onnx");
  REQUIRE(m.ParseFromString(bytes));
  auto* graph = m.mutable_graph();
  ::google::protobuf::RepeatedPtrField<::onnx::ValueInfoProto> inputs;
  kept.clear();
  for (int k = 0; k < graph->input_size(); ++k) {
    const auto& v = graph->input(k);
    const bool constant = v.type().tensor_type().elem_type() != 1 ||
                          std::find(fold.begin(), fold.end(), k) != fold.end();
    if (!constant) {
      *inputs.Add() = v;
      kept.push_back(k);
      continue;
    }
    ::onnx::TensorProto t;
    REQUIRE(t.ParseFromString(so::read_file(ds / ("input_" + std::to_string(k) + ".pb"))));
    t.set_name(v.name());
    *graph->add_initializer() = t;
  }
  graph->mutable_input()->Swap(&inputs);
  return so::parse_graph(m.SerializeAsString(), (dir / "model.onnx").string());
}

void conformance(const std::string& name, const std::vector<int>& fold = {}) {
  const fs::path dir = kNodeDir / name;
  INFO("ONNX backend test " << dir.string());
  REQUIRE(fs::is_directory(dir));
  std::size_t sets = 0;
  for (int d = 0; fs::is_directory(dir / ("test_data_set_" + std::to_string(d))); ++d, ++sets) {
    const fs::path ds = dir / ("test_data_set_" + std::to_string(d));
    std::vector<int> kept;
    const so::Graph g = with_constant_operands(dir, ds, fold, kept);
    REQUIRE(kept.size() == g.inputs.size());
    std::map<std::string, Tensor<float>> in;
    std::map<std::string, Tensor<double>> in_exact;
    for (std::size_t k = 0; k < g.inputs.size(); ++k) {
      const auto t = std::get<Tensor<float>>(so::load_tensor(ds / ("input_" + std::to_string(kept[k]) + ".pb")));
      in.emplace(g.inputs[k].name, t);
      in_exact.emplace(g.inputs[k].name, Tensor<double>(t.shape(), std::vector<double>(t.values().begin(), t.values().end())));
    }
    const auto fp32 = so::run_fp32(g, in);
    const auto exact = so::run_exact_to_double(g, in_exact);
    for (std::size_t k = 0; k < g.outputs.size(); ++k) {
      const auto want = std::get<Tensor<float>>(so::load_tensor(ds / ("output_" + std::to_string(k) + ".pb")));
      compare(ds.string() + " FP32 runner", fp32.at(g.outputs[k].name), want);
      compare(ds.string() + " exact runner", exact.at(g.outputs[k].name), want);
    }
  }
  CHECK(sets >= 1);
}

}  // namespace

TEST_CASE("model runners: libonnx-testdata node tests of the supported operators", "[onnx][model]") {
  const char* tests[] = {
      "test_add", "test_add_bcast", "test_sub", "test_sub_bcast", "test_sub_example", "test_mul", "test_mul_bcast",
      "test_mul_example", "test_div", "test_div_bcast", "test_div_example", "test_relu", "test_tanh",
      "test_tanh_example", "test_sigmoid", "test_sigmoid_example", "test_identity", "test_constant",
      "test_softmax_axis_0", "test_softmax_axis_1", "test_softmax_axis_2", "test_softmax_default_axis",
      "test_softmax_example", "test_softmax_large_number", "test_softmax_negative_axis",
      "test_gemm_all_attributes", "test_gemm_alpha", "test_gemm_beta", "test_gemm_default_matrix_bias",
      "test_gemm_default_no_bias", "test_gemm_default_scalar_bias", "test_gemm_default_single_elem_vector_bias",
      "test_gemm_default_vector_bias", "test_gemm_default_zero_bias", "test_gemm_transposeA", "test_gemm_transposeB",
      "test_matmul_2d", "test_matmul_3d", "test_matmul_4d",
      "test_flatten_axis0", "test_flatten_axis1", "test_flatten_axis2", "test_flatten_axis3",
      "test_flatten_default_axis", "test_flatten_negative_axis1", "test_flatten_negative_axis2",
      "test_flatten_negative_axis3", "test_flatten_negative_axis4",
      "test_conv_with_autopad_same", "test_conv_with_strides_and_asymmetric_padding",
      "test_conv_with_strides_no_padding", "test_conv_with_strides_padding",
      "test_averagepool_2d_default", "test_averagepool_2d_ceil", "test_averagepool_2d_pads",
      "test_averagepool_2d_pads_count_include_pad", "test_averagepool_2d_precomputed_pads",
      "test_averagepool_2d_precomputed_pads_count_include_pad", "test_averagepool_2d_precomputed_same_upper",
      "test_averagepool_2d_precomputed_strides", "test_averagepool_2d_same_lower", "test_averagepool_2d_same_upper",
      "test_averagepool_2d_strides",
      "test_maxpool_2d_default", "test_maxpool_2d_ceil", "test_maxpool_2d_dilations", "test_maxpool_2d_pads",
      "test_maxpool_2d_precomputed_pads", "test_maxpool_2d_precomputed_same_upper",
      "test_maxpool_2d_precomputed_strides", "test_maxpool_2d_same_lower", "test_maxpool_2d_same_upper",
      "test_maxpool_2d_strides",
      "test_neg", "test_neg_example", "test_abs", "test_exp", "test_exp_example", "test_log", "test_log_example",
      "test_sqrt", "test_sqrt_example", "test_leakyrelu", "test_leakyrelu_default", "test_leakyrelu_example",
      "test_globalaveragepool", "test_globalaveragepool_precomputed", "test_transpose_default",
      "test_transpose_all_permutations_0", "test_transpose_all_permutations_1", "test_transpose_all_permutations_2",
      "test_transpose_all_permutations_3", "test_transpose_all_permutations_4", "test_transpose_all_permutations_5",
      "test_batchnorm_epsilon", "test_batchnorm_example",
      "test_concat_1d_axis_0", "test_concat_1d_axis_negative_1", "test_concat_2d_axis_0", "test_concat_2d_axis_1",
      "test_concat_2d_axis_negative_1", "test_concat_2d_axis_negative_2", "test_concat_3d_axis_0",
      "test_concat_3d_axis_1", "test_concat_3d_axis_2", "test_concat_3d_axis_negative_1",
      "test_concat_3d_axis_negative_2", "test_concat_3d_axis_negative_3"};
  for (const char* t : tests) {
    SECTION(t) { conformance(t); }
  }
}

// The operators of issue 42's second batch: LayerNormalization, Erf, Pow, Clip,
// Min, Max, ReduceSum / ReduceMean / ReduceMax (no Gelu test: ONNX 1.12 has
// opset 17 at most).
TEST_CASE("model runners: libonnx-testdata node tests of the normalisation and reduction operators",
          "[onnx][model]") {
  const std::vector<std::pair<const char*, std::vector<int>>> tests = {
      {"test_layer_normalization_2d_axis0", {}}, {"test_layer_normalization_2d_axis1", {}},
      {"test_layer_normalization_2d_axis_negative_1", {}}, {"test_layer_normalization_2d_axis_negative_2", {}},
      {"test_layer_normalization_3d_axis0_epsilon", {}}, {"test_layer_normalization_3d_axis1_epsilon", {}},
      {"test_layer_normalization_3d_axis2_epsilon", {}}, {"test_layer_normalization_3d_axis_negative_1_epsilon", {}},
      {"test_layer_normalization_3d_axis_negative_2_epsilon", {}},
      {"test_layer_normalization_3d_axis_negative_3_epsilon", {}}, {"test_layer_normalization_4d_axis0", {}},
      {"test_layer_normalization_4d_axis1", {}}, {"test_layer_normalization_4d_axis2", {}},
      {"test_layer_normalization_4d_axis3", {}}, {"test_layer_normalization_4d_axis_negative_1", {}},
      {"test_layer_normalization_4d_axis_negative_2", {}}, {"test_layer_normalization_4d_axis_negative_3", {}},
      {"test_layer_normalization_4d_axis_negative_4", {}}, {"test_layer_normalization_default_axis", {}},
      {"test_erf", {}},
      {"test_pow", {1}}, {"test_pow_bcast_array", {1}}, {"test_pow_bcast_scalar", {1}}, {"test_pow_example", {1}},
      {"test_pow_types_float32_int64", {}},
      {"test_clip", {}}, {"test_clip_default_inbounds", {}}, {"test_clip_default_max", {}},
      {"test_clip_default_min", {}}, {"test_clip_example", {}}, {"test_clip_inbounds", {}},
      {"test_clip_outbounds", {}}, {"test_clip_splitbounds", {}},
      {"test_min_example", {}}, {"test_min_float32", {}}, {"test_min_one_input", {}}, {"test_min_two_inputs", {}},
      {"test_max_example", {}}, {"test_max_float32", {}}, {"test_max_one_input", {}}, {"test_max_two_inputs", {}},
      {"test_reduce_sum_default_axes_keepdims_example", {}}, {"test_reduce_sum_default_axes_keepdims_random", {}},
      {"test_reduce_sum_do_not_keepdims_example", {}}, {"test_reduce_sum_do_not_keepdims_random", {}},
      {"test_reduce_sum_empty_axes_input_noop_example", {}}, {"test_reduce_sum_empty_axes_input_noop_random", {}},
      {"test_reduce_sum_keepdims_example", {}}, {"test_reduce_sum_keepdims_random", {}},
      {"test_reduce_sum_negative_axes_keepdims_example", {}}, {"test_reduce_sum_negative_axes_keepdims_random", {}},
      {"test_reduce_mean_default_axes_keepdims_example", {}}, {"test_reduce_mean_default_axes_keepdims_random", {}},
      {"test_reduce_mean_do_not_keepdims_example", {}}, {"test_reduce_mean_do_not_keepdims_random", {}},
      {"test_reduce_mean_keepdims_example", {}}, {"test_reduce_mean_keepdims_random", {}},
      {"test_reduce_mean_negative_axes_keepdims_example", {}}, {"test_reduce_mean_negative_axes_keepdims_random", {}},
      {"test_reduce_max_default_axes_keepdim_example", {}}, {"test_reduce_max_default_axes_keepdims_random", {}},
      {"test_reduce_max_do_not_keepdims_example", {}}, {"test_reduce_max_do_not_keepdims_random", {}},
      {"test_reduce_max_keepdims_example", {}}, {"test_reduce_max_keepdims_random", {}},
      {"test_reduce_max_negative_axes_keepdims_example", {}}, {"test_reduce_max_negative_axes_keepdims_random", {}}};
  for (const auto& [t, fold] : tests) {
    SECTION(t) { conformance(t, fold); }
  }
}

// The layout operators: Squeeze, Unsqueeze, Slice, Gather, Pad, Where, Dropout
// (no Cast test: every one casts from or to a format other than FLOAT).
TEST_CASE("model runners: libonnx-testdata node tests of the layout operators", "[onnx][model]") {
  const char* tests[] = {
      "test_squeeze", "test_squeeze_negative_axes", "test_unsqueeze_axis_0", "test_unsqueeze_axis_1",
      "test_unsqueeze_axis_2", "test_unsqueeze_axis_3", "test_unsqueeze_negative_axes", "test_unsqueeze_three_axes",
      "test_unsqueeze_two_axes", "test_unsqueeze_unsorted_axes", "test_slice", "test_slice_default_axes",
      "test_slice_default_steps", "test_slice_end_out_of_bounds", "test_slice_neg", "test_slice_neg_steps",
      "test_slice_negative_axes", "test_slice_start_out_of_bounds", "test_gather_0", "test_gather_1",
      "test_gather_2d_indices", "test_gather_negative_indices", "test_constant_pad", "test_where_example",
      "test_dropout_default", "test_dropout_default_ratio", "test_dropout_default_old", "test_dropout_random_old"};
  for (const char* t : tests) {
    SECTION(t) { conformance(t); }
  }
}
