// A downstream project using the installed symerr::onnx component: a tensor
// through a serialized ONNX TensorProto and back.
#include <cstdio>

#include <symerr/onnx/tensor_proto.hpp>

int main() {
  using namespace symerr;
  const AnyTensor t = Tensor<float>({2}, {1.5f, -2.0f});
  const AnyTensor back = onnx::parse_tensor(onnx::serialize_tensor(t, "x"), "round trip");
  std::printf("symerr::onnx: %s tensor round trip\n", onnx::data_type_name(static_cast<int>(onnx::data_type_of(back))).c_str());
  return back == t ? 0 : 1;
}
