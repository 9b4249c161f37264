// Conformance of the whole-model runners (docs/models.md) on the ONNX backend
// node tests of Debian's libonnx-testdata, for every supported operator:
// the FP32 reference runner and the exact runner (rounded to double) against
// the expected outputs within the backend tests' tolerances (rtol 1e-3,
// atol 1e-7). A missing directory is a failure, not a skip.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include <symerr/onnx/model.hpp>
#include <symerr/onnx/tensor_proto.hpp>

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

void conformance(const std::string& name) {
  const fs::path dir = kNodeDir / name;
  INFO("ONNX backend test " << dir.string());
  REQUIRE(fs::is_directory(dir));
  const so::Graph g = so::load_graph(dir / "model.onnx");
  std::size_t sets = 0;
  for (int d = 0; fs::is_directory(dir / ("test_data_set_" + std::to_string(d))); ++d, ++sets) {
    const fs::path ds = dir / ("test_data_set_" + std::to_string(d));
    std::map<std::string, Tensor<float>> in;
    std::map<std::string, Tensor<double>> in_exact;
    for (std::size_t k = 0; k < g.inputs.size(); ++k) {
      const auto t = std::get<Tensor<float>>(so::load_tensor(ds / ("input_" + std::to_string(k) + ".pb")));
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
