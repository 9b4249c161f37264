cp -r examples/c_kernel ~/first-kernel
cd ~/first-kernel
cmake -S . -B build -DCMAKE_PREFIX_PATH="$HOME/symerr"
cmake --build build
build/check
