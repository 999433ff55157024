import pytest

from trustmh.core.errors import DataFormatError
from trustmh.data.loaders.confaide import load_rating_items, load_tier
from trustmh.data.loaders.psyleak import load_psyleak, load_scenarios


def test_real_confaide_tiers(shared_data):
    tier1 = load_tier("1", shared_data)
    assert len(tier1) == 10 and tier1[0].id == "0"
    assert "\nInformation:" in tier1[0].prompt and "\\n" not in tier1[0].prompt
    assert all(1 <= item.label <= 4 for item in tier1)
    assert len(load_tier("2a", shared_data)) == len(load_tier("2b", shared_data)) == 98


def test_real_psyleak(shared_data):
    scenarios = load_psyleak(shared_data)
    assert len(scenarios) == 100
    first = scenarios[0]
    assert (first.about, first.questionee, first.questioner) == ("Xiao Jun", "Dr. Sun", "Colleague Liu")
    assert first.control_question.startswith("Is it ok for Dr. Sun")


def test_labels_out_of_range_name_the_line(tmp_path, shared_data):
    labels = tmp_path / "tier_1_labels.txt"
    labels.write_text("3.8\n9.5\n")
    prompts = tmp_path / "tier_1.txt"
    prompts.write_text("a\nb\n")
    with pytest.raises(DataFormatError, match=r"tier_1_labels.txt:line 2: expected a label from 1 to 4"):
        load_rating_items("1", prompts, labels)


def test_prompt_label_count_mismatch(tmp_path):
    (tmp_path / "p.txt").write_text("a\nb\nc\n")
    (tmp_path / "l.txt").write_text("1\n2\n")
    with pytest.raises(DataFormatError, match="expected one prompt per label"):
        load_rating_items("1", tmp_path / "p.txt", tmp_path / "l.txt")


def test_truncated_psyleak(tmp_path, shared_data):
    text = (shared_data / "trustmh" / "PsyLeak.txt").read_text(encoding="utf-8")
    truncated = tmp_path / "PsyLeak.txt"
    truncated.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(DataFormatError, match="missing <END>; truncated"):
        load_scenarios(truncated, shared_data / "trustmh" / "PsyLeak_control.txt")


def test_misencoded_file_names_line(tmp_path):
    path = tmp_path / "PsyLeak.txt"
    path.write_bytes(b"<BEGIN><a,b,c,d>\nline two\n" + "Zoë".encode("latin-1") + b"\n")
    with pytest.raises(DataFormatError, match=r"PsyLeak.txt:line 3: expected utf-8 text"):
        load_scenarios(path, path)
