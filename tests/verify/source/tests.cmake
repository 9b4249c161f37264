# Source kernels through `symerr run` from a campaign file alone
# (docs/campaign-files.md "Kernels given as source"): every fixture kernel in
# ONNX reference style with true statements (proven, or inconclusive with
# their three numbers) and planted false ones (violated with a witness from
# the compiled kernel), a planted wrong kernel (relu_wrong), the hypotheses,
# determinism, and the errors. Builds are cached under the test's directory.
set(_src ${CMAKE_CURRENT_SOURCE_DIR}/verify/source)
function(symerr_source_test name campaign status expect)
  cmake_parse_arguments(A "TWICE" "" "SEMANTICS;LABELS" ${ARGN})
  add_test(NAME verify/source/${name}
           COMMAND ${CMAKE_COMMAND} -DSYMERR=$<TARGET_FILE:symerr> -DCAMPAIGN=${_src}/${campaign}
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/source-work/${name} -DEXPECT_STATUS=${status}
                   "-DEXPECT=${expect}" "-DSEMANTICS=${A_SEMANTICS}" -DTWICE=${A_TWICE}
                   -P ${_src}/run_source_campaign.cmake)
  set_tests_properties(verify/source/${name} PROPERTIES LABELS "source;no-asan;${A_LABELS}" TIMEOUT 1800)
endfunction()
symerr_source_test(gelu gelu.json 1
  "statement/gelu/FP32/gelu.err.2.5e-7=proven,statement/gelu/FP32/gelu.err.1e-7=violated" TWICE
  SEMANTICS "statement/gelu/|libm_model|^tanhf: glibc,statement/gelu/|fma_instructions|^0 ,statement/gelu/|model_honoured|^yes$")
symerr_source_test(gelu-fma gelu_fma.json 0 "statement/gelu_fma/=inconclusive"
  SEMANTICS "statement/gelu_fma/|fma_instructions|^[1-9],statement/gelu_fma/|model_honoured|^no: .*FMA")
symerr_source_test(relu relu.json 1
  "statement/relu/FP32/relu.exact=proven,statement/relu/FP32/relu.false=violated,statement/relu_wrong/=violated")
symerr_source_test(softmax softmax.json 1
  "statement/softmax/FP32/softmax.err.1e-6=proven,statement/softmax/FP32/softmax.false=violated")
symerr_source_test(layer-norm layer_norm.json 1
  "statement/layer_norm/FP32/layernorm.err.1e-3=inconclusive,statement/layer_norm/FP32/layernorm.false=violated")
symerr_source_test(matmul matmul.json 1
  "statement/matmul4_fp32/FP32/sonnx.matmul.float.introduction=inconclusive,statement/matmul4_fp32/FP32/matmul.false=violated,statement/matmul4_fp64/FP64/sonnx.matmul.float.introduction=inconclusive,statement/matmul4_fp64/FP64/matmul.false=violated")
if(SYMERR_LONG_TESTS)
symerr_source_test(matmul16 matmul16.json 1
  "statement/matmul16_fp32/FP32/sonnx.matmul.float.introduction=inconclusive,statement/matmul16_fp32/FP32/matmul.false=violated,statement/matmul16_fp64/FP64/sonnx.matmul.float.introduction=inconclusive,statement/matmul16_fp64/FP64/matmul.false=violated"
  LABELS long)
endif()
# errors before any kernel runs: a statement naming a tensor that is no
# argument, a C compiler that is not there (exit 2, the file and JSON path named)
add_test(NAME verify/source/bad-tensor COMMAND sh -c "\"$0\" run \"$1\" --output \"$2\" 2>&1 | grep -q 'bad_tensor.json: at /kernels/0/statements/0: statement gelu.err.2.5e-7 names tensor .Q., which is no tensor argument of gelu' && { \"$0\" run \"$1\" --output \"$2\" >/dev/null 2>&1; test $? -eq 2; }"
         $<TARGET_FILE:symerr> ${_src}/bad_tensor.json ${CMAKE_CURRENT_BINARY_DIR}/source-work/bad)
add_test(NAME verify/source/no-compiler COMMAND sh -c "\"$0\" run \"$1\" --output \"$2\" 2>&1 | grep -q 'at /kernels/0/compiler: C compiler .symerr-no-such-cc. not found: install one' && { \"$0\" run \"$1\" --output \"$2\" >/dev/null 2>&1; test $? -eq 2; }"
         $<TARGET_FILE:symerr> ${_src}/no_compiler.json ${CMAKE_CURRENT_BINARY_DIR}/source-work/nocc)
add_test(NAME verify/source/bad-role COMMAND sh -c "\"$0\" run \"$1\" --output \"$2\" 2>&1 | grep -q 'bad_role.json: at /kernels/0/arguments/0/role: expected .input., .output. or .scalar.' && { \"$0\" run \"$1\" --output \"$2\" >/dev/null 2>&1; test $? -eq 2; }"
         $<TARGET_FILE:symerr> ${_src}/bad_role.json ${CMAKE_CURRENT_BINARY_DIR}/source-work/badrole)
add_test(NAME verify/source/bad-expression COMMAND sh -c "\"$0\" run \"$1\" --output \"$2\" 2>&1 | grep -q 'bad_expr.json: /kernels/0/statements/1/bound: column 9: expected' && { \"$0\" run \"$1\" --output \"$2\" >/dev/null 2>&1; test $? -eq 2; }"
         $<TARGET_FILE:symerr> ${_src}/bad_expr.json ${CMAKE_CURRENT_BINARY_DIR}/source-work/badexpr)
add_test(NAME verify/source/bad-prototype COMMAND sh -c "\"$0\" run \"$1\" --output \"$2\" 2>&1 | grep -q 'at /kernels/0/arguments: the entry.s prototype from the arguments, void gelu(const float\\*, float\\*, int), does not match' && { \"$0\" run \"$1\" --output \"$2\" >/dev/null 2>&1; test $? -eq 2; }"
         $<TARGET_FILE:symerr> ${_src}/bad_prototype.json ${CMAKE_CURRENT_BINARY_DIR}/source-work/badproto)
set_tests_properties(verify/source/bad-tensor verify/source/no-compiler verify/source/bad-role
                     verify/source/bad-expression verify/source/bad-prototype PROPERTIES LABELS "source")
# the tutorial's first source campaign (docs/tutorial-source-campaign.md) from the build tree;
# install/examples runs it from an installed prefix
symerr_source_test(tutorial ../../../examples/source_campaign/campaign.json 1
  "statement/gelu/FP32/gelu.abs.2.5e-7=proven,statement/gelu/FP32/gelu.abs.1e-7=violated")
