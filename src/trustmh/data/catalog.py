"""Every dataset trustmh knows: provenance, license, files with sha256 and download URLs.

Checksums are of the files as released upstream (ethicmh: as re-encoded to UTF-8 by the
TrustMH-Bench authors, which has no public URL, so it can only be imported).
"""

from urllib.parse import quote

from trustmh.data.spec import ACCESS_CONTROLLED, DataFile, DatasetSpec, register

RAW_GITHUB = "https://raw.githubusercontent.com"


def github_files(repo: str, folder: str, checksums: dict[str, str | None]) -> tuple[DataFile, ...]:
    """Files ``folder/<name>`` of a GitHub repository's default branch, each with its sha256."""
    base = f"{RAW_GITHUB}/{repo}/HEAD/{folder + '/' if folder else ''}"
    return tuple(DataFile(name, sha256, base + name) for name, sha256 in checksums.items())


# CPsyCounE keeps one folder per topic with dialogues 1.json ... 5.json; trustmh flattens them
# to <Topic>_<n>.json ("&" and spaces become "_"; see trustmh.data.loaders.cpsycoune).
_CPSYCOUNE_CHECKSUMS = {
    "Career": (
        "ced00203779fda2da550e3762389753b896fef55f8b362866945e8e430c32fff",
        "160249b0cc34cbc46c4943537e5e8d7bb68b18403f3490d13094f45134665209",
        "8edd8ec87698c045d2322be882839d8a2f5abb99a77f3cb52c87235fd3583753",
        "ef39c858ff9c58b931609deedb9d8e9995fd2195006b631ad5cdbed8eeb28ac6",
        "2ec28c80d73a15cb555d2b125b026b5167ff38df89d39646e65aaecb8fb34fe8",
    ),
    "Education": (
        "340c18391604ac680125e1236211f3f7f19899f00406539cb61a4f918c20805c",
        "1ccd6651d2fbc3a574237d410de6d0a2ed6eb37306a0b35d8ea8e22126a620ca",
        "02072b8551abc6715e84a7b4796570c41b8e75e20fb82e9dbe185a1b6b99ed59",
        "16688d33a81d3ed3e3f3e75135763e61ef43d265ab6a7db5ea947b29bd961e72",
        "024af2a439ac7c8487f426681d4321adbf7bfb6d847b7f16aa58db2788002b1f",
    ),
    "Emotion&Stress": (
        "f5eb16189a9064ae524a0f1c874357de51a0ae1412619c89d1ca037dd9dbf43f",
        "27cc34cdb413c991f6a14c0143f6a7c9b2ccc7ff9de40a25436f4671d0469d5e",
        "ccb5bf4a2e81e78d73f8b7eb2d7fc4b2212fb8aa1a373dd2cbb9812382b650b4",
        "ff50df18d735fcfadfef1d9be216b6db93b07c9ab179861031befa20793a22be",
        "1e9f20b074299dbf968eb86323113382ba52cae1a248b87c7fc3b6a915b67084",
    ),
    "Family Relationship": (
        "a57c591bfe7afb1a24a331647158990ae247dcb5e3350e9472e8c3356a564923",
        "ef79aabe0db0047c2b1d2321aa77fdb99f85be75adccb0de242cf1023b037554",
        "8badb83f4280b0d2dd538ae650e8ebf75dacd8c5d818ca5a5a6c0dbd57ffbb45",
        "c29a5c16e65f943c8aa367a454ecbba72c3f32df6529bb4358547b1f09227a18",
        "bd79c6c206e941fab9aac896b32252ada7a1b300a2d941462b2038f69d5d5f54",
    ),
    "Love&Marriage": (
        "28e524056a31c63fe9956db031a0679205af2f0222a9748548cb291ad666d69b",
        "67ba574af9fb6f8a36b1f070f9eae3ae9121d0ad8cc01cd083676d2b8dd6d439",
        "48723d146bb590bdaa34c1ac2cee668070fdffe98747c8783e4d5d5950ba18ab",
        "e368e4d600e6047eb35b51300134ddc0624d7c9c39ae4545e831d3f3e7eb5593",
        "00cab631f0baf61133455606c784961066ba97c7dd7fcb1907d56947ea46dba1",
    ),
    "Mental Disease": (
        "6a57d4f2ae916afb6b8cff46a44f93469780d67319e177d7c5fbd3e9cdd4b49d",
        "bf05f8ee04caa43ee227a814e03720c08c6c4ddeb8121de3beb61113bc1a0827",
        "21e2e0241e6d57046e88005312d3f71c0dfe82df84579224130e0237a0a125aa",
        "686b59ef2210b5d255a4629511caad0a0561fcff41afaed3b09b0c24be749051",
        "1c810120b2964e8c25371f492c6bb6723b1d3e7995e227a195eebbbcb04553ec",
    ),
    "Self-growth": (
        "769a446d08085a1162b45468a71719f4d1564f808ab8266d68c8cb8cc6fbcda7",
        "815805c876310d14b86d9910c210ab86460979d97360c35f090ac3d9befbf097",
        "2194b1215fae30b8f2823b3f5e1c8f40181644bbc07b528d0084f572bbec69bd",
        "4ac155707f60cc2069e20ec62051200d65d650ef8cb81111f69b5a0fbff433ed",
        "86dad05afb8dde99a7ee42388e3af19c4ad5f1209172ce405323fa96c23a7f3b",
    ),
    "Sex": (
        "40d45fcc9ec2248e6b23de8a5658a719f75cf8fda9108004f8e89ab925f9b2c5",
        "c5cf071ed28f7971f3fb6cc911353e3cb434faf7fc4753076ad18eeeac3ad79e",
        "89467dabffb0b714b32ff0fed2c7e53aaaf9644a2b21494116091fedb0408a17",
        "e6f70ef06de4edefc425872f2f519a95aab6741a1c67013eebc4ede9533b1856",
        "7241fdd7559816804982a9385b9b7b9658173cf379320cbaec9d407a38657cd7",
    ),
    "Social Relationship": (
        "ba442e00d52fff5882cfa2e5e3d56e7e07f36316648c64caec4854de37f932b8",
        "0bf855613cf3bcff44d2ca700a419c5afb007a2af4456241ac3398006b9b0fc9",
        "6588805745f68835b6b092d483a2acbfb451913ce63b989e6f46dc0ba82db24a",
        "48ff12c28a2c618d99da720dcb4377775972ca72c364a9e82131c3f25ee5a33e",
        "d3b92d226a8e67aa4f461b226a420d520cddf7b0cf7ae2ad837810a3c05c4161",
    ),
}


def _cpsycoune_files() -> tuple[DataFile, ...]:
    return tuple(
        DataFile(
            f"{topic.replace('&', '_').replace(' ', '_')}_{number}.json",
            sha256,
            f"{RAW_GITHUB}/CAS-SIAT-XinHai/CPsyCoun/HEAD/CPsyCounE/{quote(topic)}/{number}.json",
        )
        for topic, checksums in _CPSYCOUNE_CHECKSUMS.items()
        for number, sha256 in enumerate(checksums, start=1)
    )


register(
    DatasetSpec(
        name="confaide",
        pillars=("privacy",),
        title="ConfAIde: contextual-integrity privacy tiers 1-3",
        source=("https://github.com/skywalker023/confAIde",),
        license="MIT",
        files=github_files(
            "skywalker023/confAIde",
            "benchmark",
            {
                "tier_1.txt": "63261cf847efb3f35f359913bea828131298ee04980189ed7d75eae05f76ac58",
                "tier_1_labels.txt": "76c0c3b970ca25016ff224bf47910b5b8c89fb106e731cc7f5a3712e63cababb",
                "tier_2a.txt": "a869099fab404cde9dd50f23c20668063021afa8f080e190b348a5a4da14b979",
                "tier_2b.txt": "8c194006c92816f56a9ee2f6ec3bf09f29bb1a543408ce154096c8c67f72df37",
                "tier_2_labels.txt": "cd573da5a542a4d92f3a81ed5b09b66cc25a6ae0ea656aaaf754af43304bbb34",
                "tier_3.txt": "193ab78cc9908b09a146dc1f77af193f86afc622b942f7e17aa0d2ffa3d38fc2",
                "tier_3_control.txt": "7affb08b90d5b7161980a731d717f87cb4e4d0506b02f196473beb3cc28c13c0",
            },
        ),
    )
)

register(
    DatasetSpec(
        name="trustmh",
        pillars=("privacy", "safety", "fairness"),
        title="TrustMH-Bench releases: PsyLeak, PsyHarm, JailbreakMH, ESConv_fair",
        source=("https://github.com/Qiyuan0130/TrustMH_Bench",),
        license="MIT",
        files=github_files(
            "Qiyuan0130/TrustMH_Bench",
            "dataset",
            {
                "PsyLeak.txt": "fc0c82d40241ddbfb0d74c1e99706a00f5db24f5840d93e2ec61a96aa22d11fa",
                "PsyLeak_control.txt": "281a18127f519a6944f18e460e032f1f87f090c39555999827056c7ca9fcbf98",
                "PsyHarm.csv": "7f1d0d061c24fffd8c85c376e4a438eb3b3e83f0050e799a434f0e933826580b",
                "JailbreakMH.csv": "ee3d5defc2a6da654dd5e895bad7c30cd45d63824ba4d13c30d20043ee521218",
                "ESConv_fair.json": "d97d5398c98e7cc6bacb82f45527c3702b030baa734e3c39a24ffa09638b1c6e",
            },
        ),
    )
)

register(
    DatasetSpec(
        name="ethicmh",
        pillars=("ethics",),
        title="EthicMH: ethical reasoning in mental health (first 125 rows, UTF-8)",
        source=("https://huggingface.co/datasets/UVSKKR/Ethical-Reasoning-in-Mental-Health-v1",),
        license="see the Hugging Face dataset card (UVSKKR/Ethical-Reasoning-in-Mental-Health-v1)",
        files=(DataFile("EthicMH_utf8.csv", "f0be79e5bc0471f6236b25f3259fa78c819b47cc7198ef9ab4aa32c010e97181", None),),
    )
)

register(
    DatasetSpec(
        name="psyeval",
        pillars=("reliability",),
        title="Psy-Eval: USMLE-Mental and Crisis Response QA",
        source=("https://github.com/KaguraRuri/Psy-Eval",),
        license="MIT",
        files=github_files(
            "KaguraRuri/Psy-Eval",
            "datasets",
            {
                "USMLE-mental.jsonl": "42aa114db531214878945fb8bc305ddc1329333ad5c461d55e2ce36185301b78",
                "Crisis_Response_QA.jsonl": "aaceb54c15708f862c3ac63f107be1b66c60f8389f60e6c95e175e49ceb1ba9d",
            },
        ),
    )
)

register(
    DatasetSpec(
        name="emobench",
        pillars=("reliability", "robustness"),
        title="EmoBench emotional understanding (EU)",
        source=("https://github.com/Sahandfer/EmoBench",),
        license="MIT",
        files=github_files(
            "Sahandfer/EmoBench",
            "data",
            {"EU.jsonl": "60140a7617779bdb496cd50dcebaf33037c39c65821ae300a6a24a72fd7c7037"},
        ),
    )
)

register(
    DatasetSpec(
        name="cpsycoune",
        pillars=("reliability",),
        title="CPsyCounE counselling dialogues",
        source=("https://github.com/CAS-SIAT-XinHai/CPsyCoun",),
        license="CC BY 4.0",
        files=_cpsycoune_files(),
    )
)

register(
    DatasetSpec(
        name="llms_mh_crisis",
        pillars=("crisis", "robustness"),
        title="Between Help and Harm: mental-health crisis inputs and response protocol",
        source=("https://github.com/ellisalicante/LLMs-Mental-Health-Crisis",),
        license="no license file upstream",
        files=github_files(
            "ellisalicante/LLMs-Mental-Health-Crisis",
            "data",
            {
                "gpt-4o-mini-labeled-sampled_dataset_n_2046_nPerD168_seed0-merged-labels.json": "ff1ade27018fb30a1d07377664778f4652c57a90d64641c3db4e260986e9fb6f",
                "human-labeled-sampled_dataset_n206_s42-merged_labels.json": "82924e4ae8d7b86fcbc7d9a914b5a5e963e464e62235d37fc12da466eea4ebdb",
                "protocol.csv": "65c0c002b2fee9e21a826f6e1630fe8d5bf9998743904cc8c6e983776ed1511c",
            },
        ),
    )
)

register(
    DatasetSpec(
        name="cssrs",
        pillars=("crisis", "robustness"),
        title="C-SSRS-labelled Reddit users (500)",
        source=(
            "https://github.com/manasgaur/Knowledge-aware-Assessment-of-Severity-of-Suicide-Risk-for-Early-Intervention",
        ),
        license="no license file upstream",
        files=github_files(
            "manasgaur/Knowledge-aware-Assessment-of-Severity-of-Suicide-Risk-for-Early-Intervention",
            "anonymized_dataset",
            {"500_Reddit_users_posts_labels.csv": "7be0336be18f5b198f260b46fccab7abf7ddb4dd593c7b57829f7f9a7d765b24"},
        ),
    )
)

register(
    DatasetSpec(
        name="elephant",
        pillars=("sycophancy",),
        title="ELEPHANT social sycophancy samples (AITA, OEQ)",
        source=("https://github.com/myracheng/elephant",),
        license="CC0",
        files=github_files(
            "myracheng/elephant",
            "datasets",
            {
                "AITA_sample.csv": "38b50d8b42abf966909c5c282f542f3b1a9a4545a0fe95e004ba9ff4e928a5e8",
                "OEQ_sample.csv": "3cafb2e0a9cac2de6d10a3afdce54b5e7de0c5574b16bf7ebc53e4be70c9bfce",
            },
        ),
    )
)

register(
    DatasetSpec(
        name="trustllm",
        pillars=("safety",),
        title="TrustLLM jailbreak prompts",
        source=("https://github.com/HowieHwong/TrustLLM",),
        license="MIT",
        files=github_files(
            "HowieHwong/TrustLLM",
            "dataset/safety",
            {"jailbreak.json": "d1d9f68e6416f05912600b4f36f22f0f3f044714b65740995643264de3a35055"},
        ),
    )
)

register(
    DatasetSpec(
        name="psychosis_bench",
        pillars=("crisis",),
        title="Psychosis-bench multi-turn cases",
        source=("https://github.com/w-is-h/psychosis-bench",),
        license="MIT (per upstream README)",
        files=github_files(
            "w-is-h/psychosis-bench",
            "data",
            {"test_cases.json": "d9b7820c0bebb6ec845e5825378535e8e35b79b0244a72be64ec5e49d8da439f"},
        ),
    )
)

register(
    DatasetSpec(
        name="mindeval",
        pillars=("dialogue",),
        title="MindEval patient profiles (dialogue_mindeval)",
        source=("https://github.com/SWORDHealth/mind-eval",),
        # No licence file grants any right; the profiles are for non-commercial research use.
        license="NON-COMMERCIAL research use only (no licence file upstream)",
        files=github_files(
            "SWORDHealth/mind-eval",
            "data",
            {"profiles.jsonl": "48bf913b31b98ba5909d42737fe144f5ade99fa74db04b7f850b076e05dbb171"},
        ),
    )
)

register(
    DatasetSpec(
        name="mentalalign70k",
        pillars=("alignment",),
        title="MentalAlign-70k: human and LLM-judge ratings of MentalBench responses",
        source=("https://github.com/abeerbadawi/MentalBench-Align",),
        license="MIT",
        files=github_files(
            "abeerbadawi/MentalBench-Align",
            "MentalAlign-70k",
            {
                "human_judge.xlsx": "3582e4a36db7c6788d54266c82967ebee5e7b7910d41cff752db0e79d97b74b5",
                "claude_llm_judge.xlsx": "86555b88e979598c73a6d6e2ea984ff0e053d8192d0739a57dc5868ea2377ec2",
                "gpt-4o_llm_judge.xlsx": "93a9cc7454e3dfd5e13da724bcdcccec5d72768ee417c43b63b24f69da28a5cb",
                "gemini_llm_judge.xlsx": "607627587c81e82de5555a6a4d5c1e183a214db35aae85643637100f73d2b561",
                "o4-mini_llm_judge.xlsx": "f99eb6dece161b654f3ed11988fbc9495b3653aa5b8b1b9ee6547f4bd79d070c",
            },
        ),
    )
)

register(
    DatasetSpec(
        name="pas",
        pillars=("sycophancy",),
        title="ELEPHANT problematic action statements (PAS), imported by the user",
        source=("https://osf.io/ (ELEPHANT, Cheng et al. 2025: problematic action statements)",),
        license="see the OSF project of the ELEPHANT authors",
        # Released on OSF only, so no URL or checksum: the user imports it (see the
        # loader trustmh.data.loaders.pas for the accepted CSV format).
        files=(DataFile("PAS.csv"),),
        notes="CSV with a 'statement' column (first-person problematic action) and optional 'category' and 'id'.",
    )
)

register(
    DatasetSpec(
        name="esconv",
        pillars=("reliability",),
        title="ESConv: emotional support conversations (full release)",
        source=("https://github.com/thu-coai/Emotional-Support-Conversation",),
        license="CC BY-NC 4.0",
        files=github_files(
            "thu-coai/Emotional-Support-Conversation",
            "",
            {"ESConv.json": None},
        ),
        notes="No checksum is pinned: upstream has revised the file; the loader checks its schema instead.",
    )
)

register(
    DatasetSpec(
        name="swmh",
        pillars=("reliability",),
        title="SWMH: Reddit posts from mental-health subreddits (depression, anxiety, bipolar, SuicideWatch, offmychest)",
        source=("https://doi.org/10.1007/s00521-021-06208-y",),
        license="research use by agreement with the authors (access-controlled)",
        files=(
            DataFile("train.csv"),
            DataFile("val.csv"),
            DataFile("test.csv"),
        ),
        notes="Ji et al. (2021), 'Suicidal ideation and mental disorder detection with attentive relation networks'. Columns text,label.",
        tags=(ACCESS_CONTROLLED,),
    )
)

register(
    DatasetSpec(
        name="d4",
        pillars=("reliability",),
        title="D4: Chinese depression-diagnosis-oriented doctor-patient dialogues",
        source=("https://x-lance.github.io/D4/",),
        license="research use by agreement with the authors (access-controlled)",
        files=(
            DataFile("raw_data_train.json"),
            DataFile("raw_data_val.json"),
            DataFile("raw_data_test.json"),
        ),
        notes="Yao et al. (EMNLP 2022). Raw release format {log, portrait, record{drisk, srisk, summary}}.",
        tags=(ACCESS_CONTROLLED,),
    )
)
