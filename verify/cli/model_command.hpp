// symerr model MODEL.onnx: whole-model analysis (docs/models.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace symerr::cli {

struct ModelArgs {
  std::string model;                 // the .onnx file
  std::vector<std::string> boxes;    // "[NAME=]LO,HI"
  std::vector<std::string> points;   // "NAME=FILE.pb"
  std::vector<std::string> point_sets;  // "NAME=A.pb,B.pb,...": one file per point of the set
  double input_error = 0;
  double point_half_width = 0;       // a box [p - h, p + h] around each point
  std::string domain = "interval";   // the enclosures' domain
  std::size_t affine_terms = 48;     // affine: the most symbols per form
  std::string epsilon;               // absolute ε on every output ("" = none)
  std::size_t samples = 1000;
  std::uint64_t seed = 1;
  std::string output = "report";     // report directory
  bool strict = false;
  bool quiet = false;
};

// The subcommand registered on an app, and the arguments its options fill.
struct ModelCommand {
  CLI::App* app;
  std::shared_ptr<ModelArgs> args;
};
ModelCommand add_model_command(CLI::App& app);
// Exit status as symerr run: 0 nothing failed, 1 an output violates its ε (or
// a concrete execution left its enclosure: a symerr bug), 4 with --strict when
// a verdict is inconclusive, 2 usage or input error (InputError propagates).
int model_command(const ModelArgs& a);

}  // namespace symerr::cli
