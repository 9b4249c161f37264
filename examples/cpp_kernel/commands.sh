cp -r examples/cpp_kernel ~/first-bound
cd ~/first-bound
cmake -S . -B build -DCMAKE_PREFIX_PATH="$HOME/symerr"
cmake --build build
build/first_bound
