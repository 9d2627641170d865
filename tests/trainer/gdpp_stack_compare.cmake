# The GD++ stack (vladymyrov_gdpp_stack) through `compare`'s verdict machinery:
#   1. a tiny training (one seed, STEPS steps) gets a verdict (pass or fail, never an error) with
#      the three gated metrics against GD++ with tuned per-layer coefficients;
#   2. the same file with compare's own tuned coefficients written in (gamma_l = N gamma_tuned,
#      the trainer's 1/N convention; eta_l as tuned) must PASS: this checks that the reader's
#      expansion of (gamma_l, eta_l) into LSA weights is the map compare tunes;
#   3. that file broken must FAIL, on at least one tuned-GD++ metric: the first layer's eta with
#      its sign flipped, and the second layer collapsed (gamma_2 = eta_2 = 0).
#   -DTRAIN=<iclproof-train> -DEXE=<iclproof> -DCONFIG=<config json> -DSTEPS=n -DOUT=<dir>
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
string(TIMESTAMP t0 "%s" UTC)
execute_process(COMMAND ${TRAIN} --config ${CONFIG} --preset ci --steps ${STEPS} --seed 1
                        --device cpu --quiet --out ${OUT}/seed-1.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP t1 "%s" UTC)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "training failed (exit ${rc})\n${out}${err}")
endif()
set(compare_args --tasks 1000 --calibration-tasks 4000)

function(judge file want_verdict)
  execute_process(COMMAND ${EXE} compare ${file} ${compare_args} --json ${file}.compare.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}${err}")
  if(want_verdict STREQUAL "pass")
    set(want_rc 0)
  elseif(want_verdict STREQUAL "fail")
    set(want_rc 1)
  elseif(rc EQUAL 0 OR rc EQUAL 1)  # any verdict
    set(want_rc ${rc})
  else()
    set(want_rc "0 or 1")
  endif()
  if(NOT rc STREQUAL want_rc)
    message(FATAL_ERROR "compare ${file}: exit ${rc}, expected ${want_rc} (verdict ${want_verdict})")
  endif()
  file(READ ${file}.compare.json j)
  string(JSON verdict GET "${j}" verdict)
  if(NOT want_verdict STREQUAL "any" AND NOT verdict STREQUAL want_verdict)
    message(FATAL_ERROR "compare ${file}: verdict ${verdict}, expected ${want_verdict}")
  endif()
  # The tuned-GD++ metrics are gated for a GD++ stack; record which of them failed.
  string(JSON n LENGTH "${j}" metrics)
  math(EXPR last "${n} - 1")
  set(tuned_seen 0)
  set(tuned_failed "")
  foreach(i RANGE ${last})
    string(JSON name GET "${j}" metrics ${i} name)
    string(JSON gated GET "${j}" metrics ${i} gated)
    string(JSON passed GET "${j}" metrics ${i} passed)
    if(name MATCHES "gdpp_tuned$" AND gated)
      math(EXPR tuned_seen "${tuned_seen} + 1")
      if(NOT passed)
        list(APPEND tuned_failed ${name})
      endif()
    endif()
  endforeach()
  if(tuned_seen LESS 3)
    message(FATAL_ERROR "compare ${file}: ${tuned_seen} gated tuned-GD++ metrics, expected 3")
  endif()
  if(want_verdict STREQUAL "fail" AND tuned_failed STREQUAL "")
    message(FATAL_ERROR "compare ${file}: failed, but on no tuned-GD++ metric")
  endif()
  message(STATUS "${file}: ${verdict}; tuned-GD++ metrics failed: ${tuned_failed}")
endfunction()

judge(${OUT}/seed-1.json any)

# The tuned coefficients compare used for seed 1 (same tasks seed, same calibration stream).
execute_process(
  COMMAND python3 -c "
import json, sys
w = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
t = c['tables']['gdpp_tuned']
for l, s in enumerate(w['parameter_sets']):
    s['gamma']['data'] = t['gamma'][l] * w['model']['N']
    s['eta']['data'] = t['eta'][l]
json.dump(w, open(sys.argv[3], 'w'))
" ${OUT}/seed-1.json ${OUT}/seed-1.json.compare.json ${OUT}/tuned.json
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "writing the tuned model failed: ${err}")
endif()
judge(${OUT}/tuned.json pass)

file(READ ${OUT}/tuned.json weights)
string(JSON eta1 GET "${weights}" parameter_sets 0 eta data)
if(eta1 MATCHES "^-")
  string(SUBSTRING "${eta1}" 1 -1 flipped)
else()
  set(flipped "-${eta1}")
endif()
string(JSON sign_flip SET "${weights}" parameter_sets 0 eta data "${flipped}")
file(WRITE ${OUT}/sign_flip.json "${sign_flip}")
judge(${OUT}/sign_flip.json fail)

string(JSON collapsed SET "${weights}" parameter_sets 1 eta data "0")
string(JSON collapsed SET "${collapsed}" parameter_sets 1 gamma data "0")
file(WRITE ${OUT}/collapsed_layer.json "${collapsed}")
judge(${OUT}/collapsed_layer.json fail)
string(TIMESTAMP t2 "%s" UTC)
math(EXPR train_s "${t1} - ${t0}")
math(EXPR compare_s "${t2} - ${t1}")
message(STATUS "wall clock: training ${train_s} s, four comparisons ${compare_s} s")
