"""The catalog: complete, cited to the seeds, and refusing every kind of damage clearly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shensha_plates.core.catalog import SEED_FILES, default_catalog, load_catalog
from shensha_plates.core.errors import CatalogError
from tests.conftest import DATA, REPO, SEEDS

BAD = sorted((DATA / "bad_catalogs").glob("*.toml"))

# Every spirit named in PLATES.md (our reading of seed 002), section by section.
PLATES_NAMES = {
    "U1": "太岁 太阳 青龙 赶煞 丧门 六合 官符 小耗 岁宅 岁破 大耗 破煞 岁墓 龙德 朱雀 白虎 福德 吊客 太阴大将 病符",
    "U2": "驿马 六害 息神 华盖 黄幡 劫煞 灾煞 天煞 岁煞 地煞 桃花 咸池 豹尾 亡神 将星 攀鞍",
    "U3": "仪神 旬乙 盗神 旬丁 旬庚 旬辛 五亡 七煞 旬癸 闭口 空亡",
    "U4": "奇神",
    "year tables": "天庭 死符 岁刑 大将军",
    "L1": "天喜 天耳 返魂 刀砧 寡宿 三丘 关神 关锁 管神 皇书 战雄 吏神 贼神 奸盗 转煞 丝麻煞 浴盆 天目 龙神 "
          "喝散 孤辰 梁神 钥神 火鬼 哭神 五墓 地狱 煞神 绝气 战雌 四废 丧车 天转 地转",
    "L2": "月建 小时 天虎 木煞 青龙煞 天龙 游煞 游神 草煞 天医 雌虎 瘟煞 天巫 厄煞 孝杖 死神 电煞 火烛 乌煞 "
          "死气 官符 孝服 谩语 花煞 井煞 枯骨 枯煞 小耗 天印 天羊 福神 月破 兵煞 大耗 路神 阳缠 白虎煞 书信 天机 "
          "天钱 天书 天害 愿神 地医 飞魂 伏殃 天诏 病煞 儿煞 生气 雨煞 血支 天坑 佛煞 天牛 坟墓",
    "L3": "神煞 天猪 月合 天鼠 天视 天怪 风煞 烛命 厌对 血光 月害 破器 化神 地咒 阴奸 邪神 床煞 阴缠 天猴 风伯 "
          "天解 轩辕 天鸡 天狗 四足 月厌 石煞 火光",
    "L4": "驿马 天鬼 天吏 长绳 天咒 光影 黄幡 火怪 天狱 墓门 天网 女灾 雷煞 劫煞 坑坎 山魈 灾煞 镜煞 披麻 五盗 "
          "小煞 天煞 迷惑 月煞 天盗 雷公 桃花 咸池 悬索 大时 邪鬼 月德 亡神 游祸 大煞 伏骨 下丧 月鬼 秽煞 丧魄",
    "L5": "驿合 天旺 成神 梯煞 天破 香炉煞 丧门 狱煞 奸门 天信 反激 阳煞 邪督 天火 雨师 月奸 釜神 产煞 天厕 "
          "奸私 盗神 天械 上丧",
    "L6": "天马 皇恩 兽煞 天刑 怪煞 天财",
    "L7": "圣心 血忌 玉宇 金堂 罪至 受死",
    "month tables": "天德 天德合 月德 月德合 地解 解神 皇恩大赦 会神 信神 飞廉 往亡 月刑 天贼 五鬼 相负 枉屈 瓦煞 "
                    "大德 天赦 游神 戏神 忧神 泰神 天车 死别 奸神 飞祸 时盗 金神 破碎 白衣 归忌 门煞 梦神",
    "干煞": "德 合 官 鬼 禄 长生 墓 恩赦 干奇 飞符 游都 鲁都 日解 日医 日奸 日盗 日贼 贤贵 日大煞 日淫 文星 福星 "
           "羊刃 飞刃 日刑 日冲 进神 退神 举",
    "支煞": "支德 六合 三合 支仪 支破 绞神 勾神 破碎 刑 害 冲 支墓 支鬼 死神 病符 驿马 华盖 劫煞 灾煞 四煞 咸池 "
           "支亡 雷电 雨师 晴朗 白衣翰林",
}
_SHORT = {"德": "干德", "合": "干合", "官": "日官", "鬼": "日鬼", "禄": "日禄", "墓": "日墓", "刑": "支刑",
          "害": "支害", "冲": "支冲"}


def test_bundled_catalog_loads() -> None:
    cat = default_catalog()
    assert [r.id for r in cat.rings] == ["U1", "U2", "U3", "U4", "L1", "L2", "L3", "L4", "L5", "L6", "L7"]
    assert len(cat.spirits) >= 300
    assert len({s.id for s in cat.spirits}) == len(cat.spirits)
    for s in cat.spirits:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", s.id)
        assert s.meaning and s.source.quote and s.name and s.name_trad


@pytest.mark.parametrize("section", list(PLATES_NAMES))
def test_nothing_in_plates_md_is_missing(section: str) -> None:
    cat = default_catalog()
    missing = [n for n in PLATES_NAMES[section].split() if not cat.find(_SHORT.get(n, n))]
    assert not missing, f"{section}: {missing}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds (../shared/seeds) are not beside this checkout")
def test_every_quote_is_in_its_seed() -> None:
    norm = lambda t: re.sub(r"\s+", "", t)  # noqa: E731
    seeds = {k: norm((SEEDS / v).read_text("utf-8")) for k, v in SEED_FILES.items()}
    cat = default_catalog()
    wrong = []
    for r in cat.rings:
        if norm(r.source.quote) not in seeds[r.source.file]:
            wrong.append((r.id, r.source.quote))
    for s in cat.spirits:
        for src in [s.source] + [v.source for v in s.variants]:
            if not src.file:  # a book outside the seeds: named, never passed off as a seed file
                if not (src.outside or "").startswith("《") or src.file_name is not None:
                    wrong.append((s.id, src.outside))
            elif norm(src.quote) not in seeds[src.file]:
                wrong.append((s.id, src.quote))
    assert not wrong
    # The main reading of every spirit comes from a seed; only variants may come from outside.
    assert all(s.source.file for s in cat.spirits)


def test_zhuang_verdicts_are_variants_not_merged() -> None:
    cat = default_catalog()
    rejected = {s.id: [v.id for v in s.variants if v.verdict == "rejected"] for s in cat.spirits}
    for sid in ("tian_xi", "da_sha", "lei_gong", "zhuan_sha", "si_fei", "ku_gu", "tian_ji", "nv_zai",
                "er_sha", "mi_huo", "meng_shen", "tian_shu_l3", "tian_hou", "tian_niu", "tian_yang", "chang_sheng"):
        assert rejected[sid], sid
    # Same name, different spirits: never one entry.
    assert len(cat.find("大煞")) >= 2 and len(cat.find("丧门")) >= 2 and len(cat.find("官符")) >= 2
    assert len(cat.find("黄幡")) >= 2 and len(cat.find("雨师")) >= 2 and len(cat.find("驿马")) >= 3


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_damaged_catalogs_name_file_entry_field_and_value(path: Path) -> None:
    expected = path.read_text("utf-8").splitlines()[0].removeprefix("# expect: ")
    with pytest.raises(CatalogError) as info:
        load_catalog([path])
    message = str(info.value)
    assert message.startswith(f"catalog {path}")
    assert expected in message


def test_truncated_and_misencoded_files(tmp_path: Path) -> None:
    good = (REPO / "shensha_plates" / "resources" / "catalog" / "lower.toml").read_bytes()
    cut = tmp_path / "cut.toml"
    cut.write_bytes(good[: len(good) // 2])
    with pytest.raises(CatalogError, match="cut.toml"):
        load_catalog([REPO / "shensha_plates" / "resources" / "catalog" / "upper.toml", cut])
    gbk = tmp_path / "gbk.toml"
    gbk.write_bytes(good.decode("utf-8").encode("gb18030"))
    with pytest.raises(CatalogError, match=r"gbk.toml: entry \(file\), field \(encoding\).*not UTF-8"):
        load_catalog([gbk])
    with pytest.raises(CatalogError, match="cannot be read"):
        load_catalog([tmp_path / "absent.toml"])


def test_the_bundled_files_reload_identically() -> None:
    files = sorted((REPO / "shensha_plates" / "resources" / "catalog").glob("*.toml"))
    again = load_catalog(files)
    assert [s.id for s in again.spirits] == [s.id for s in default_catalog().spirits]


def test_a_ring_rule_carries_its_rings_key_and_anchor() -> None:
    from shensha_plates.core.rules import RingPlacing
    cat = default_catalog()
    rules = [r for s in cat.spirits for r in (s.rule, *(v.rule for v in s.variants)) if isinstance(r, RingPlacing)]
    assert len(rules) > 100
    for r in rules:
        ring = cat.ring(r.ring)
        assert r.key == ring.key and r.anchor is ring.anchor
