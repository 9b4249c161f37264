// SHA-256 (FIPS 180-4 §6.2) and the Debian package owning a file.
#include <symerr/verify/report/identity.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace symerr::verify {

namespace {

constexpr std::array<std::uint32_t, 64> kK = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

class Sha256 {
 public:
  void update(const unsigned char* p, std::size_t n) {
    length_ += n;
    while (n > 0) {
      const std::size_t take = std::min(n, 64 - fill_);
      std::copy(p, p + take, block_.begin() + static_cast<std::ptrdiff_t>(fill_));
      fill_ += take;
      p += take;
      n -= take;
      if (fill_ == 64) {
        compress();
        fill_ = 0;
      }
    }
  }
  std::string hex() {
    const std::uint64_t bits = length_ * 8;
    const unsigned char one = 0x80, zero = 0;
    update(&one, 1);
    while (fill_ != 56) update(&zero, 1);
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    update(len, 8);
    std::string s;
    char buf[9];
    for (std::uint32_t v : h_) {
      std::snprintf(buf, sizeof buf, "%08x", v);
      s += buf;
    }
    return s;
  }

 private:
  void compress() {
    std::uint32_t w[64];
    for (int t = 0; t < 16; ++t)
      w[t] = std::uint32_t{block_[4 * t]} << 24 | std::uint32_t{block_[4 * t + 1]} << 16 |
             std::uint32_t{block_[4 * t + 2]} << 8 | block_[4 * t + 3];
    for (int t = 16; t < 64; ++t) {
      const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
    for (int t = 0; t < 64; ++t) {
      const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[t] + w[t];
      const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h_[0] += a; h_[1] += b; h_[2] += c; h_[3] += d;
    h_[4] += e; h_[5] += f; h_[6] += g; h_[7] += h;
  }

  std::array<std::uint32_t, 8> h_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<unsigned char, 64> block_{};
  std::size_t fill_ = 0;
  std::uint64_t length_ = 0;
};

// stdout of a command run without a shell: "" when it fails (with
// `any_status`, whatever it printed).
std::string command_output(const std::vector<std::string>& argv, bool any_status = false) {
  std::string cmd;
  for (const auto& a : argv) {
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += (cmd.empty() ? "" : " ") + q + "'";
  }
  FILE* p = ::popen((cmd + " 2>/dev/null").c_str(), "r");
  if (!p) return "";
  std::string out;
  char buf[512];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0 && out.size() < 65536) out.append(buf, n);
  const int st = ::pclose(p);
  return WIFEXITED(st) && (WEXITSTATUS(st) == 0 || any_status) ? out : "";
}

bool under_dpkg(const std::string& p) {
  // dpkg only installs below these; asking about other paths costs a scan of its database
  for (const char* prefix : {"/usr/", "/lib/", "/lib64/", "/lib32/", "/bin/", "/sbin/"})
    if (p.rfind(prefix, 0) == 0) return true;
  return false;
}

// "name version" of the packages owning `files`, by one dpkg -S and one
// dpkg-query per package (each call reads dpkg's database: ~0.3 s).
std::map<std::string, std::string> debian_packages_of(const std::vector<std::string>& files) {
  std::vector<std::string> argv = {"dpkg", "-S"};
  for (const auto& f : files)
    if (under_dpkg(f)) argv.push_back(f);
  std::map<std::string, std::string> owner, version, out;
  if (argv.size() == 2) return out;
  std::istringstream lines(command_output(argv, true));  // status 1 when a file has no owner
  for (std::string line; std::getline(lines, line);) {  // "package[:arch]: /path"
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    const std::string package = line.substr(0, colon);
    if (package.find(',') != std::string::npos) continue;  // several owners: a diversion or a directory
    owner[line.substr(colon + 2)] = package;
  }
  for (const auto& [file, package] : owner) {
    if (!version.count(package)) version[package] = command_output({"dpkg-query", "-W", "-f=${Version}", package});
    out[file] = version[package].empty() ? package : package + " " + version[package];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  Sha256 h;
  h.update(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  return h.hex();
}

std::string sha256_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot read the file to hash it");
  Sha256 h;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    h.update(reinterpret_cast<const unsigned char*>(buf.data()), static_cast<std::size_t>(in.gcount()));
  }
  return h.hex();
}

std::string debian_package_of(const std::filesystem::path& file) {
  if (!under_dpkg(file.string())) return "";
  // dpkg -S prints "package[:arch]: /path"
  const std::string owner = command_output({"dpkg", "-S", file.string()});
  const auto colon = owner.find(": ");
  if (owner.empty() || colon == std::string::npos || owner.find('\n') < colon) return "";
  const std::string package = owner.substr(0, colon);
  if (package.find(',') != std::string::npos) return "";  // several owners: a diversion or a directory
  std::string version = command_output({"dpkg-query", "-W", "-f=${Version}", package});
  return version.empty() ? package : package + " " + version;
}

std::vector<LinkedLibrary> library_closure(const std::filesystem::path& library) {
  static std::mutex m;
  static std::map<std::string, std::vector<LinkedLibrary>> memo;
  const std::string key = library.string();
  {
    std::lock_guard<std::mutex> lock(m);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  // "libm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x...)", "/lib64/ld-linux-x86-64.so.2 (0x...)";
  // the vDSO ("linux-vdso.so.1 (0x...)") has no file
  std::istringstream lines(command_output({"ldd", key}));
  std::map<std::string, LinkedLibrary> found;
  std::vector<std::string> as_listed;  // the paths dpkg knows (/lib/..., not /usr/lib/... on merged /usr)
  for (std::string line; std::getline(lines, line);) {
    const auto arrow = line.find("=> ");
    std::string path = arrow == std::string::npos ? line : line.substr(arrow + 3);
    path.erase(0, path.find_first_not_of(" \t"));
    path = path.substr(0, path.find(" ("));
    if (path.empty() || path[0] != '/') continue;
    std::error_code ec;
    const auto canonical = std::filesystem::canonical(path, ec);
    LinkedLibrary l;
    l.path = ec ? path : canonical.string();
    try {
      l.sha256 = sha256_file(l.path);
    } catch (const std::exception&) {
      continue;  // not a file ldd could have loaded
    }
    as_listed.push_back(path);
    as_listed.push_back(l.path);
    found[l.path] = l;
  }
  const auto packages = debian_packages_of(as_listed);
  for (std::size_t i = 0; i + 1 < as_listed.size(); i += 2) {
    LinkedLibrary& l = found[as_listed[i + 1]];
    for (const auto& p : {as_listed[i], as_listed[i + 1]})
      if (auto it = packages.find(p); l.package.empty() && it != packages.end()) l.package = it->second;
  }
  std::vector<LinkedLibrary> out;
  for (auto& [path, l] : found) out.push_back(std::move(l));
  std::lock_guard<std::mutex> lock(m);
  memo[key] = out;
  return out;
}

}  // namespace symerr::verify
