"""The Liu Ren plate (壬式): month general, heaven plate, generals, four lessons, three transmissions
by the nine methods with the record of every step, and the spirits of Zhuang's plates on them.

Pure and data-driven: the rules are ``resources/liuren/*.toml``; the disputed points are settings
(:class:`KeOptions`), the defaults following 《大六壬指南》.

>>> ke = compute_ke(day=17, hour=6, general=2)  # 辛巳 日, 寅将午时 (seed 002)
>>> [BRANCHES[lesson.upper] for lesson in ke.lessons]
['午', '寅', '丑', '酉']
"""

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.liuren.ke import GeneralTerm, Ke, Transmission, compute_ke, compute_ke_at, month_general_at
from shensha_plates.core.liuren.method import Course, Lesson, Step, course
from shensha_plates.core.liuren.plate import HeavenPlate, KeOptions, heaven_plate, kin
from shensha_plates.core.liuren.spirits import KeSpirits, NameStatus, SpiritsAt, names_for_state, resolve_names, spirits_on
from shensha_plates.core.liuren.tables import liuren_tables

__all__ = ["Ke", "Transmission", "Lesson", "Step", "Course", "HeavenPlate", "KeOptions", "GeneralTerm",
           "KeSpirits", "NameStatus", "SpiritsAt", "compute_ke", "compute_ke_at", "course", "heaven_plate",
           "month_general_at", "kin", "liuren_tables", "names_for_state", "resolve_names", "spirits_on", "BRANCHES"]
