# Shards and merge: `report --shard k/3` for k = 1, 2, 3 then `merge` gives the
# report.json of one `report` run with the same parameters (only "generated_at" may differ; the
# timings live in timings.json), and `check --shard k/3 --json` then `merge` gives the check.json
# of one `check --json` run (only the "seconds" timings may differ). The selection includes a
# property that fails late in the run (in the last shard) and is shrunk, so the merge combines
# passing shards with a failing one. Then merge must refuse, with one "iclproof: error:" line and
# exit code 2: a missing shard (the first, a middle one, the last), a duplicated shard, a shard of another seed or size profile
# (--size), a shard of the other command, a damaged (truncated) file, an edited file, an
# unreadable file.
#   -DEXE=iclproof_verdict_fixture -DWORK=dir -DCASES=n -DSEED=s
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(common --property "vonoswald.*" --cases ${CASES} --seed ${SEED})
set(report_args ${common} --sweep-bits 64,128 --sweep-cases 5 --no-plots)

# run(EXPECT args...): EXPECT is an exit code, or "any" (0 or 1: a shard may hold a failure).
function(run expect)
  execute_process(COMMAND ${EXE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if((expect STREQUAL "any" AND NOT (rc EQUAL 0 OR rc EQUAL 1))
     OR (NOT expect STREQUAL "any" AND NOT rc EQUAL expect))
    message(FATAL_ERROR "'${ARGN}' exited '${rc}', expected ${expect}\n${out}${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
endfunction()

# refused(MATCH args...): exit code 2, one "iclproof: error:" line matching MATCH, no stdout.
function(refused match)
  execute_process(COMMAND ${EXE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(STRIP "${err}" line)
  if(NOT rc EQUAL 2 OR NOT line MATCHES "^iclproof: error: [^\n]*${match}[^\n]*$"
     OR NOT out STREQUAL "")
    message(FATAL_ERROR "'${ARGN}': expected exit 2 and one error line matching '${match}' "
                        "before any output; got ${rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  message(STATUS "refused: ${line}")
endfunction()

function(strip_and_compare what a b pattern)
  file(READ ${a} ja)
  file(READ ${b} jb)
  string(REGEX REPLACE "${pattern}" "" ja "${ja}")
  string(REGEX REPLACE "${pattern}" "" jb "${jb}")
  if(NOT ja STREQUAL jb)
    file(WRITE ${a}.stripped "${ja}")
    file(WRITE ${b}.stripped "${jb}")
    execute_process(COMMAND diff -u ${a}.stripped ${b}.stripped OUTPUT_VARIABLE d)
    message(FATAL_ERROR "${what}: merged shards differ from the single run:\n${d}")
  endif()
  string(LENGTH "${ja}" len)
  message(STATUS "${what}: merged == single run (${len} bytes compared)")
endfunction()

# --- report: one run, three shards (shard 2 on two jobs), merge -------------------------------
run(1 report --out ${WORK}/report_single ${report_args} --jobs 1)
foreach(k IN ITEMS 1 2 3)
  set(jobs 1)
  if(k EQUAL 2)
    set(jobs 2)
  endif()
  run(any report --shard ${k}/3 --out ${WORK}/report_shard${k} ${report_args} --jobs ${jobs})
endforeach()
run(1 merge ${WORK}/report_shard3/shard.json ${WORK}/report_shard1/shard.json
    ${WORK}/report_shard2/shard.json --out ${WORK}/report_merged --no-plots)
strip_and_compare("report.json" ${WORK}/report_single/report.json
                  ${WORK}/report_merged/report.json "\n *\"generated_at\": \"[^\"]*\",?")
file(READ ${WORK}/report_merged/report.json merged)
if(NOT merged MATCHES "first failing case: case [1-9][0-9]*")
  message(FATAL_ERROR "the merged report holds no failure after case 0: the test needs one")
endif()

# --- check: one run, three shards, merge --------------------------------------------------------
run(1 check ${common} --jobs 1 --json ${WORK}/check_single.json)
set(single_out "${last_out}")
foreach(k IN ITEMS 1 2 3)
  run(any check ${common} --shard ${k}/3 --jobs 2 --json ${WORK}/check_shard${k}.json)
endforeach()
run(1 merge ${WORK}/check_shard1.json ${WORK}/check_shard2.json ${WORK}/check_shard3.json
    --out ${WORK}/check_merged)
strip_and_compare("check.json" ${WORK}/check_single.json ${WORK}/check_merged/check.json
                  "\n *\"seconds\": [^\n]*")

# --- refusals -------------------------------------------------------------------------------------
set(s1 ${WORK}/check_shard1.json)
set(s2 ${WORK}/check_shard2.json)
set(s3 ${WORK}/check_shard3.json)
refused("missing shard\\(s\\) 2 of 3" merge ${s1} ${s3} --out ${WORK}/refused)
# The edges: the last shard missing, and the first (issue 39: only a middle one was ever dropped).
refused("missing shard\\(s\\) 3 of 3" merge ${s1} ${s2} --out ${WORK}/refused)
refused("missing shard\\(s\\) 1 of 3" merge ${s2} ${s3} --out ${WORK}/refused)
refused("missing shard\\(s\\) 3 of 3" merge ${WORK}/report_shard1/shard.json
        ${WORK}/report_shard2/shard.json --out ${WORK}/refused)
refused("given twice" merge ${s1} ${s2} ${s2} ${s3} --out ${WORK}/refused)
run(any check --property "vonoswald.*" --cases ${CASES} --seed 12345 --shard 2/3
    --json ${WORK}/other_seed.json)
refused("different runs \\(parameters: seed" merge ${s1} ${WORK}/other_seed.json ${s3}
        --out ${WORK}/refused)
run(any check --property "vonoswald.*" --cases ${CASES} --seed ${SEED} --size paper --shard 2/3
    --json ${WORK}/other_size.json)
refused("different runs \\(parameters: size" merge ${s1} ${WORK}/other_size.json ${s3}
        --out ${WORK}/refused)
refused("different runs \\(commands" merge ${s1} ${s2} ${WORK}/report_shard3/shard.json
        --out ${WORK}/refused)
file(READ ${s2} text)
string(LENGTH "${text}" len)
math(EXPR half "${len} / 2")
string(SUBSTRING "${text}" 0 ${half} truncated)
file(WRITE ${WORK}/truncated.json "${truncated}")
refused("damaged shard file .*truncated.json: not JSON" merge ${s1} ${WORK}/truncated.json ${s3}
        --out ${WORK}/refused)
string(REPLACE "\"passed\": " "\"passed\": 1" edited "${text}")
file(WRITE ${WORK}/edited.json "${edited}")
refused("damaged shard file .*checksum mismatch" merge ${s1} ${WORK}/edited.json ${s3}
        --out ${WORK}/refused)
refused("cannot read shard file .*nonexistent.json" merge ${s1} ${WORK}/nonexistent.json ${s3}
        --out ${WORK}/refused)
