#include <symerr/onnx/tensor_proto.hpp>

#include <symerr/tensor_errors.hpp>

#include <onnx/onnx_pb.h>

#include <bit>
#include <climits>
#include <cstring>
#include <fstream>
#include <limits>
#include <system_error>
#include <type_traits>

namespace symerr::onnx {

static_assert(std::endian::native == std::endian::little,
              "raw_data is little-endian; this loader copies it as is");

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw InputError(source + ": " + what);
}

template <class T>
constexpr DataType data_type_for() {
  if constexpr (std::is_same_v<T, float>) return DataType::Float;
  else if constexpr (std::is_same_v<T, double>) return DataType::Double;
  else if constexpr (std::is_same_v<T, Half>) return DataType::Float16;
  else if constexpr (std::is_same_v<T, BFloat16>) return DataType::BFloat16;
  else if constexpr (std::is_same_v<T, std::int8_t>) return DataType::Int8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return DataType::Int16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return DataType::Int32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return DataType::Int64;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return DataType::Uint8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return DataType::Uint16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return DataType::Uint32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return DataType::Uint64;
  else if constexpr (std::is_same_v<T, Int4>) return DataType::Int4;
  else return DataType::Uint4;
}

// Element from its little-endian storage bits (16-bit floats, integers).
template <class T, class Bits>
T from_storage(Bits b) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
    return T::from_bits(static_cast<std::uint16_t>(b));
  else return static_cast<T>(b);
}

template <class T>
Tensor<T> decode_raw(const std::string& raw, const Shape& shape, std::size_t n,
                     const std::string& source) {
  std::vector<T> v;
  if constexpr (SmallInteger<T>) {
    const std::size_t bytes = (n + 1) / 2;
    if (raw.size() != bytes)
      fail(source, "raw_data has " + std::to_string(raw.size()) + " bytes, expected " +
                       std::to_string(bytes) + " for shape " + to_string(shape) + " of " +
                       std::string(element_type_name<T>()) + " (two 4-bit values per byte)");
    v.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
      const auto byte = static_cast<std::uint8_t>(raw[k / 2]);
      v.push_back(T::from_bits(static_cast<std::uint8_t>(k % 2 ? byte >> 4 : byte & 0xF)));
    }
  } else {
    if (raw.size() / sizeof(T) != n || raw.size() % sizeof(T) != 0)
      fail(source, "raw_data has " + std::to_string(raw.size()) + " bytes, expected " +
                       std::to_string(n) + " x " + std::to_string(sizeof(T)) + " for shape " +
                       to_string(shape) + " of " + std::string(element_type_name<T>()));
    v.resize(n);
    if (n) std::memcpy(static_cast<void*>(v.data()), raw.data(), raw.size());
  }
  return Tensor<T>(shape, std::move(v));
}

// Typed-field storage: `field` is a repeated protobuf field of values that must
// fit the element type (checked: a UINT8 tensor may not hold 300 in int32_data).
template <class T, class Field>
Tensor<T> decode_field(const Field& field, const char* field_name, const Shape& shape, std::size_t n,
                       const std::string& source) {
  using V = typename Field::value_type;
  std::vector<T> v;  // reserved only once the count is checked against the data
  if constexpr (SmallInteger<T>) {  // packed bytes, one per int32 entry
    const std::size_t bytes = (n + 1) / 2;
    if (static_cast<std::size_t>(field.size()) != bytes)
      fail(source, std::string(field_name) + " has " + std::to_string(field.size()) +
                       " entries, expected " + std::to_string(bytes) + " packed bytes for shape " +
                       to_string(shape) + " of " + std::string(element_type_name<T>()));
    v.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
      const V byte = field.Get(static_cast<int>(k / 2));
      if (byte < 0 || byte > 255) fail(source, std::string(field_name) + " entry is not a byte");
      v.push_back(T::from_bits(static_cast<std::uint8_t>(k % 2 ? byte >> 4 : byte & 0xF)));
    }
    return Tensor<T>(shape, std::move(v));
  } else {
    if (static_cast<std::size_t>(field.size()) != n)
      fail(source, std::string(field_name) + " has " + std::to_string(field.size()) +
                       " values, expected " + std::to_string(n) + " for shape " + to_string(shape));
    v.reserve(n);
    for (const V x : field) {
      if constexpr (std::is_integral_v<V>) {
        using Storage = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>,
                                           std::uint16_t, T>;
        if (!std::in_range<Storage>(x))
          fail(source, std::string(field_name) + " value " + std::to_string(x) +
                           " does not fit " + std::string(element_type_name<T>()));
        v.push_back(from_storage<T>(static_cast<Storage>(x)));
      } else {
        v.push_back(static_cast<T>(x));  // float_data -> float, double_data -> double
      }
    }
    return Tensor<T>(shape, std::move(v));
  }
}

template <class T, class Field>
AnyTensor decode(const ::onnx::TensorProto& tp, const Field& field, const char* field_name,
                 const Shape& shape, std::size_t n, const std::string& source) {
  if (tp.has_raw_data()) {
    if (field.size() != 0)
      fail(source, std::string("both raw_data and ") + field_name + " are set");
    return decode_raw<T>(tp.raw_data(), shape, n, source);
  }
  return decode_field<T>(field, field_name, shape, n, source);
}

template <class T>
void encode_raw(const Tensor<T>& t, std::string& raw) {
  if constexpr (SmallInteger<T>) {
    raw.assign((t.size() + 1) / 2, '\0');
    for (std::size_t k = 0; k < t.size(); ++k)
      raw[k / 2] = static_cast<char>(static_cast<std::uint8_t>(raw[k / 2]) |
                                     (k % 2 ? t[k].bits() << 4 : t[k].bits()));
  } else {
    raw.assign(t.size() * sizeof(T), '\0');
    if (t.size()) std::memcpy(raw.data(), static_cast<const void*>(t.values().data()), raw.size());
  }
}

}  // namespace

std::string data_type_name(int code) {
  static const char* const names[] = {
      "UNDEFINED", "FLOAT",   "UINT8",  "INT8",       "UINT16",       "INT16",
      "INT32",     "INT64",   "STRING", "BOOL",       "FLOAT16",      "DOUBLE",
      "UINT32",    "UINT64",  "COMPLEX64", "COMPLEX128", "BFLOAT16",  "FLOAT8E4M3FN",
      "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4"};
  if (code >= 0 && code < static_cast<int>(std::size(names))) return names[code];
  return "code " + std::to_string(code);
}

DataType data_type_of(const AnyTensor& t) {
  return std::visit([](const auto& x) { return data_type_for<typename std::decay_t<decltype(x)>::value_type>(); }, t);
}

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw InputError(path.string() + ": cannot read: file does not exist");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(path.string() + ": cannot read: not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open for reading");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path.string() + ": read error");
  return bytes;
}

AnyTensor parse_tensor(std::string_view bytes, const std::string& source) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX))
    fail(source, "larger than 2 GiB, which protobuf cannot parse");
  ::onnx::TensorProto tp;
  if (!tp.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    fail(source, "not a valid ONNX TensorProto (protobuf parsing failed: truncated or corrupt file)");
  if (tp.has_data_location() && tp.data_location() == ::onnx::TensorProto::EXTERNAL)
    fail(source, "external data is not supported");
  if (tp.has_segment()) fail(source, "segmented tensors are not supported");
  if (!tp.has_data_type() || tp.data_type() == 0)
    fail(source, "data_type is missing (UNDEFINED)");
  if (tp.dims_size() > static_cast<int>(kMaxRank))
    fail(source, "rank " + std::to_string(tp.dims_size()) + " exceeds the maximum rank " +
                     std::to_string(kMaxRank));
  Shape shape;
  for (const std::int64_t d : tp.dims()) {
    if (d < 0) fail(source, "negative dimension " + std::to_string(d));
    shape.push_back(static_cast<std::size_t>(d));
  }
  std::size_t n = 0;
  try {
    n = element_count(shape, "tensor");
  } catch (const ShapeError& e) {
    fail(source, e.what());
  }
  const int dt = tp.data_type();
  switch (static_cast<DataType>(dt)) {
    case DataType::Float: return decode<float>(tp, tp.float_data(), "float_data", shape, n, source);
    case DataType::Double: return decode<double>(tp, tp.double_data(), "double_data", shape, n, source);
    case DataType::Float16: return decode<Half>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::BFloat16: return decode<BFloat16>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::Int8: return decode<std::int8_t>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::Int16: return decode<std::int16_t>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::Int32: return decode<std::int32_t>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::Int64: return decode<std::int64_t>(tp, tp.int64_data(), "int64_data", shape, n, source);
    case DataType::Uint8: return decode<std::uint8_t>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::Uint16: return decode<std::uint16_t>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::Uint32: return decode<std::uint32_t>(tp, tp.uint64_data(), "uint64_data", shape, n, source);
    case DataType::Uint64: return decode<std::uint64_t>(tp, tp.uint64_data(), "uint64_data", shape, n, source);
    case DataType::Int4: return decode<Int4>(tp, tp.int32_data(), "int32_data", shape, n, source);
    case DataType::Uint4: return decode<UInt4>(tp, tp.int32_data(), "int32_data", shape, n, source);
    default:
      fail(source, "unsupported element type " + data_type_name(dt) +
                       " (supported: FLOAT16, BFLOAT16, FLOAT, DOUBLE, INT4..INT64, UINT4..UINT64)");
  }
}

AnyTensor load_tensor(const std::filesystem::path& pb) {
  return parse_tensor(read_file(pb), pb.string());
}

std::string serialize_tensor(const AnyTensor& t, const std::string& name) {
  ::onnx::TensorProto tp;
  for (std::size_t d : shape_of(t)) tp.add_dims(static_cast<std::int64_t>(d));
  tp.set_data_type(static_cast<int>(data_type_of(t)));
  if (!name.empty()) tp.set_name(name);
  std::visit([&](const auto& x) { encode_raw(x, *tp.mutable_raw_data()); }, t);
  return tp.SerializeAsString();
}

}  // namespace symerr::onnx
