// ONNX TensorProto files (.pb) <-> AnyTensor, through Debian's libonnx-dev
// protobuf classes (no ONNX or protobuf header leaks out of this interface).
//
// Supported element types: FLOAT, DOUBLE, FLOAT16, BFLOAT16, INT8/16/32/64,
// UINT8/16/32/64, and INT4/UINT4 (codes 22/21 of ONNX >= 1.16, packed two per
// byte, first element in the low nibble; Debian's ONNX 1.12 headers predate
// them). Data may come in raw_data (little-endian) or in the typed fields
// (float_data, int32_data, int64_data, double_data, uint64_data).
// Every defect raises symerr::InputError naming the source and the problem.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <symerr/any_tensor.hpp>

namespace symerr::onnx {

/// TensorProto.DataType codes.
enum class DataType : int {
  Undefined = 0, Float = 1, Uint8 = 2, Int8 = 3, Uint16 = 4, Int16 = 5, Int32 = 6, Int64 = 7,
  String = 8, Bool = 9, Float16 = 10, Double = 11, Uint32 = 12, Uint64 = 13, Complex64 = 14,
  Complex128 = 15, BFloat16 = 16, Float8E4M3FN = 17, Float8E4M3FNUZ = 18, Float8E5M2 = 19,
  Float8E5M2FNUZ = 20, Uint4 = 21, Int4 = 22,
};

/// "FLOAT", "UINT8", ...; "code 99" for an unknown code.
std::string data_type_name(int code);
/// The DataType of an AnyTensor's element type.
DataType data_type_of(const AnyTensor& t);

/// Parse a serialized TensorProto; `source` names it in error messages.
AnyTensor parse_tensor(std::string_view bytes, const std::string& source);
/// Read and parse a .pb file.
AnyTensor load_tensor(const std::filesystem::path& pb);
/// Serialize (raw_data encoding), e.g. to write test inputs.
std::string serialize_tensor(const AnyTensor& t, const std::string& name = {});

/// The whole content of a file; InputError naming the file if it cannot be read.
std::string read_file(const std::filesystem::path& path);

}  // namespace symerr::onnx
