// Bad input for the ONNX loader: every defect is an InputError naming the file
// and the problem; nothing crashes (this program also runs under ASan/UBSan).
#include <catch2/catch.hpp>

#include <symerr/onnx/node_test.hpp>
#include <symerr/onnx/tensor_proto.hpp>
#include <symerr/tensor_errors.hpp>

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <random>

using namespace symerr;
namespace fs = std::filesystem;
namespace io = symerr::onnx;  // ::onnx is the ONNX protobuf namespace

namespace {

const fs::path kNodeDir = "/usr/share/libonnx-testdata/data/node";

// A fresh scratch directory per test case.
fs::path scratch(const std::string& name) {
  const fs::path d = fs::path(SYMERR_BINARY_DIR) / "tests" / "onnx_scratch" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

// A copy of a backend test directory that a test may then damage.
fs::path copy_of(const std::string& test, const std::string& as) {
  const fs::path d = scratch(as);
  fs::copy(kNodeDir / test, d, fs::copy_options::recursive);
  return d;
}

}  // namespace

TEST_CASE("onnx bad input: a file that does not exist", "[onnx][bad-input]") {
  CHECK_THROWS_WITH(io::load_tensor("/nonexistent/input_0.pb"),
                    "/nonexistent/input_0.pb: cannot read: file does not exist");
  CHECK_THROWS_AS(io::load_node_test("/nonexistent/test_div"), InputError);
  CHECK_THROWS_WITH(io::load_node_model("/nonexistent/model.onnx"),
                    Catch::Contains("model.onnx: cannot read: file does not exist"));
  const fs::path d = scratch("dir_as_file");
  CHECK_THROWS_WITH(io::load_tensor(d), Catch::Contains("not a regular file"));
}

TEST_CASE("onnx bad input: truncated .pb files", "[onnx][bad-input]") {
  const std::string bytes = io::read_file(kNodeDir / "test_div/test_data_set_0/input_0.pb");
  REQUIRE(bytes.size() > 200);
  const fs::path d = scratch("truncated");
  // every truncation point: each is an error (protobuf failure or a data-size check)
  for (std::size_t len = 0; len < bytes.size(); ++len) {
    const fs::path p = d / ("input_0_" + std::to_string(len) + ".pb");
    write(p, bytes.substr(0, len));
    INFO("truncated to " << len << " of " << bytes.size() << " bytes");
    try {
      io::load_tensor(p);
      FAIL_CHECK("accepted");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::StartsWith(p.string() + ": "));
    }
  }
  // the full file is fine
  write(d / "full.pb", bytes);
  CHECK(shape_of(io::load_tensor(d / "full.pb")) == Shape{3, 4, 5});
  // a specific message for a cut inside raw_data
  write(d / "cut.pb", bytes.substr(0, bytes.size() - 7));
  CHECK_THROWS_WITH(io::load_tensor(d / "cut.pb"), Catch::Contains("protobuf parsing failed"));
}

TEST_CASE("onnx bad input: garbage bytes", "[onnx][bad-input]") {
  const fs::path d = scratch("garbage");
  std::mt19937_64 rng(7);
  for (int k = 0; k < 300; ++k) {
    std::string junk(static_cast<std::size_t>(rng() % 200), '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    const fs::path p = d / "junk.pb";
    write(p, junk);
    try {
      const AnyTensor t = io::load_tensor(p);
      // protobuf may accept some byte strings; they must then be a consistent tensor
      CHECK(element_count(shape_of(t)) == std::visit([](const auto& x) { return x.size(); }, t));
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::StartsWith(p.string() + ": "));
    }
  }
  write(d / "text.pb", "this is not a protobuf message at all\n");
  CHECK_THROWS_AS(io::load_tensor(d / "text.pb"), InputError);
  write(d / "model.onnx", "\xff\xff\xff\xff garbage");
  CHECK_THROWS_WITH(io::load_node_model(d / "model.onnx"),
                    Catch::Contains("not a valid ONNX model"));
}

TEST_CASE("onnx bad input: inconsistent TensorProto contents", "[onnx][bad-input]") {
  const auto parse = [](const ::onnx::TensorProto& tp) {
    return io::parse_tensor(tp.SerializeAsString(), "t.pb");
  };
  ::onnx::TensorProto tp;
  tp.add_dims(2);
  tp.add_dims(3);
  tp.set_data_type(::onnx::TensorProto::FLOAT);
  tp.set_raw_data(std::string(20, '\0'));
  CHECK_THROWS_WITH(parse(tp), "t.pb: raw_data has 20 bytes, expected 6 x 4 for shape [2,3] of FP32");
  tp.clear_raw_data();
  for (int k = 0; k < 5; ++k) tp.add_float_data(1.f);
  CHECK_THROWS_WITH(parse(tp), "t.pb: float_data has 5 values, expected 6 for shape [2,3]");
  tp.add_float_data(1.f);
  CHECK(shape_of(parse(tp)) == Shape{2, 3});
  tp.set_raw_data(std::string(24, '\0'));
  CHECK_THROWS_WITH(parse(tp), "t.pb: both raw_data and float_data are set");

  ::onnx::TensorProto u;
  u.add_dims(2);
  u.set_data_type(::onnx::TensorProto::UINT8);
  u.add_int32_data(7);
  u.add_int32_data(300);
  CHECK_THROWS_WITH(parse(u), "t.pb: int32_data value 300 does not fit UINT8");

  ::onnx::TensorProto n;
  n.add_dims(-1);
  n.set_data_type(::onnx::TensorProto::FLOAT);
  CHECK_THROWS_WITH(parse(n), "t.pb: negative dimension -1");

  ::onnx::TensorProto big;
  for (int k = 0; k < 33; ++k) big.add_dims(1);
  big.set_data_type(::onnx::TensorProto::FLOAT);
  CHECK_THROWS_WITH(parse(big), "t.pb: rank 33 exceeds the maximum rank 32");

  ::onnx::TensorProto huge;  // element count overflow, no allocation attempted
  huge.add_dims(1ll << 40);
  huge.add_dims(1ll << 40);
  huge.set_data_type(::onnx::TensorProto::FLOAT);
  CHECK_THROWS_WITH(parse(huge), Catch::Contains("overflows"));
  ::onnx::TensorProto lots;  // large but valid count, data missing
  lots.add_dims(1ll << 40);
  lots.set_data_type(::onnx::TensorProto::DOUBLE);
  CHECK_THROWS_WITH(parse(lots), Catch::Contains("double_data has 0 values, expected 1099511627776"));

  ::onnx::TensorProto notype;
  notype.add_dims(1);
  CHECK_THROWS_WITH(parse(notype), "t.pb: data_type is missing (UNDEFINED)");
  ::onnx::TensorProto str;
  str.set_data_type(::onnx::TensorProto::STRING);
  CHECK_THROWS_WITH(parse(str), Catch::Contains("unsupported element type STRING"));
  ::onnx::TensorProto ext;
  ext.set_data_type(::onnx::TensorProto::FLOAT);
  ext.set_data_location(::onnx::TensorProto::EXTERNAL);
  CHECK_THROWS_WITH(parse(ext), "t.pb: external data is not supported");

  // zero-size dimensions are valid: no data
  ::onnx::TensorProto z;
  z.add_dims(3);
  z.add_dims(0);
  z.set_data_type(::onnx::TensorProto::INT64);
  CHECK(shape_of(parse(z)) == Shape{3, 0});
}

TEST_CASE("onnx bad input: wrong data type or shape vs the model", "[onnx][bad-input]") {
  const fs::path d = copy_of("test_div", "wrong_type");
  const fs::path in1 = d / "test_data_set_0" / "input_1.pb";
  // same values, stored as FLOAT16 instead of the declared FLOAT
  const AnyTensor y = io::load_tensor(in1);
  write(in1, io::serialize_tensor(tensor_cast<Half>(std::get<Tensor<float>>(y)), "y"));
  CHECK_THROWS_WITH(io::load_node_test(d),
                    in1.string() + ": element type FLOAT16 does not match the model's declared "
                                   "type FLOAT for 'y'");
  // declared type but another shape
  write(in1, io::serialize_tensor(Tensor<float>(Shape{5}, 1.f), "y"));
  CHECK_THROWS_WITH(io::load_node_test(d),
                    in1.string() + ": shape [5] does not match the model's declared shape [3,4,5] "
                                   "for 'y'");
  // a missing input file
  fs::remove(in1);
  CHECK_THROWS_WITH(io::load_node_test(d),
                    Catch::Contains("has 1 input_*.pb files but the model has 2 graph inputs"));
}

TEST_CASE("onnx bad input: damaged node test directories", "[onnx][bad-input]") {
  const fs::path d = copy_of("test_add", "damaged");
  fs::remove_all(d / "test_data_set_0");
  CHECK_THROWS_WITH(io::load_node_test(d), d.string() + ": no test_data_set_* directory");
  const std::string model = io::read_file(d / "model.onnx");
  write(d / "model.onnx", model.substr(0, model.size() / 2));
  CHECK_THROWS_WITH(io::load_node_model(d / "model.onnx"), Catch::Contains("model.onnx: "));
  fs::remove(d / "model.onnx");
  CHECK_THROWS_WITH(io::load_node_test(d), Catch::Contains("model.onnx: cannot read: file does not exist"));
}

TEST_CASE("onnx: mismatched operand types and shapes reach the operator errors", "[onnx][bad-input]") {
  io::NodeTest t = io::load_node_test(kNodeDir / "test_mul");
  std::vector<AnyTensor> in = t.data_sets[0].inputs;
  in[1] = tensor_cast<double>(std::get<Tensor<float>>(in[1]));
  CHECK_THROWS_AS(io::run_node(t.model, in), TypeError);
  in[1] = Tensor<float>(Shape{2, 5}, 1.f);
  CHECK_THROWS_WITH(io::run_node(t.model, in),
                    Catch::Contains("Mul (ONNX multidirectional broadcasting): shapes are not "
                                    "broadcastable: A has shape [3,4,5], B has shape [2,5]"));
  t.model.op_type = "Pow";
  CHECK_THROWS_WITH(io::run_node(t.model, t.data_sets[0].inputs),
                    Catch::Contains("unsupported operator 'Pow'"));
}

TEST_CASE("onnx: legacy opset 6 models use the broadcast / axis attributes", "[onnx]") {
  io::NodeModel m = io::load_node_model(kNodeDir / "test_div_bcast" / "model.onnx");
  const std::vector<AnyTensor> in{Tensor<float>(Shape{2, 3, 4, 5}, 6.f), Tensor<float>(Shape{3, 4}, 2.f)};
  m.opset = 6;
  CHECK_THROWS_AS(io::run_node(m, in), ShapeError);  // broadcast unset = 0: same shape required
  m.int_attributes["broadcast"] = 1;
  CHECK_THROWS_AS(io::run_node(m, in), ShapeError);  // suffix matching: (3,4) is not a suffix
  m.int_attributes["axis"] = 1;
  const auto out = io::run_node(m, in);
  CHECK(std::get<Tensor<float>>(out[0]) == Tensor<float>(Shape{2, 3, 4, 5}, 3.f));
}

TEST_CASE("onnx: serialize / parse round trip for every element type", "[onnx]") {
  const std::vector<AnyTensor> all{
      Tensor<float>{1.5f, -0.f}, Tensor<double>{{1e300, -2}}, tensor_cast<Half>(Tensor<double>{65504, 1e-7}),
      tensor_cast<BFloat16>(Tensor<double>{3.0e38, -1}), Tensor<std::int8_t>{-128, 127},
      Tensor<std::int16_t>{-32768}, Tensor<std::int32_t>{1, 2, 3}, Tensor<std::int64_t>{-1},
      Tensor<std::uint8_t>{255}, Tensor<std::uint16_t>{65535}, Tensor<std::uint32_t>{4000000000u},
      Tensor<std::uint64_t>{~0ull}, tensor_cast<Int4>(Tensor<int>{-8, 7, 3}),
      tensor_cast<UInt4>(Tensor<int>{15, 0, 9, 1}), Tensor<float>(Shape{2, 0}, 0.f),
      Tensor<double>::scalar(4.0)};
  for (const AnyTensor& t : all) {
    INFO(element_type_name(t) << " " << to_string(shape_of(t)));
    const AnyTensor back = io::parse_tensor(io::serialize_tensor(t), "roundtrip");
    std::string why;
    CHECK(bitwise_equal(t, back, &why));
    INFO(why);
  }
  // INT4 packing: first element in the low nibble
  ::onnx::TensorProto tp;
  tp.ParseFromString(io::serialize_tensor(tensor_cast<Int4>(Tensor<int>{1, -2, 3})));
  CHECK(tp.data_type() == 22);
  CHECK(tp.raw_data() == std::string("\xE1\x03", 2));
}

TEST_CASE("onnx bad input: more graph outputs than node outputs", "[onnx][bad-input]") {
  const fs::path d = copy_of("test_div", "extra_graph_output");
  ::onnx::ModelProto mp;
  {
    std::ifstream in(d / "model.onnx", std::ios::binary);
    REQUIRE(mp.ParseFromIstream(&in));
  }
  *mp.mutable_graph()->add_output() = mp.graph().output(0);
  mp.mutable_graph()->mutable_output(1)->set_name("z2");
  {
    std::ofstream out(d / "model.onnx", std::ios::binary | std::ios::trunc);
    REQUIRE(mp.SerializeToOstream(&out));
  }
  // the second expected output, so that the data set matches the damaged graph
  fs::copy_file(d / "test_data_set_0/output_0.pb", d / "test_data_set_0/output_1.pb");
  const auto t = io::load_node_test(d);
  CHECK_THROWS_WITH(io::run_node_test(t), Catch::Contains("model.onnx: the graph has 2 outputs but its node produces 1"));
}
