"""The C++ harness itself: batching, compile-time rejections, runtime output, normalisation."""

from tests.cxx import cxx_harness


def test_harness_collects_prints_and_compile_time_rejections(cxx):
    cases = [
        "print(make_layout(make_shape(Int<4>{}, Int<1>{}, Int<2>{})));",
        # C++ rejects this at compile time: a result, not a crash
        "print(downcast<3>(make_layout(make_shape(Int<4>{}, Int<2>{}), make_stride(Int<2>{}, Int<3>{}))));",
        'printf("%d", 6 * 7);',
        "print(coalesce(composition(Swizzle<3,3,3>{}, make_layout(make_shape(Int<8>{}, Int<8>{}),\n"
        "                                                         make_stride(Int<8>{}, Int<1>{})))));",
        "static_assert(sizeof(int) == 1, \"ints are bytes\");",
    ]
    r = cxx.run_cases(cases)
    assert [x.ok for x in r] == [True, False, True, True, False]
    assert r[0].output == "(_4,_1,_2):(_1,_0,_4)"
    assert "Downcast requires adjacent elements" in r[1].error
    assert r[2].output == "42"
    assert r[3].output == "Sw<3,3,3> o _0 o (_8,_8):(_8,_1)"
    assert "ints are bytes" in r[4].error


def test_harness_isolates_a_broken_case_in_a_batch(cxx, monkeypatch):
    monkeypatch.setenv("CUTEPY_CXX_BATCH", "3")
    cases = [f'printf("{i}");' for i in range(5)] + ["this is not C++;"] + ['printf("x");']
    r = cxx.run_cases(cases)
    assert [x.output for x in r if x.ok] == ["0", "1", "2", "3", "4", "x"]
    assert not r[5].ok and "error" in r[5].error


def test_normalise_drops_static_markers():
    assert cxx_harness.normalise(" (_4,_-2):(_1,_0) ") == "(4,-2):(1,0)"
    assert cxx_harness.normalise("Sw<3,3,3> o _0 o (_8,_8):(_8,_1)") == "Sw<3,3,3> o 0 o (8,8):(8,1)"


def test_harness_survives_a_crashing_case(cxx):
    r = cxx.run_cases(['printf("a");', 'printf("b"); std::fflush(stdout); __builtin_trap();', 'printf("c");'])
    assert [x.ok for x in r] == [True, False, True]
    assert r[0].output == "a" and r[2].output == "c"
    assert r[1].output == "b" and "stopped" in r[1].error
