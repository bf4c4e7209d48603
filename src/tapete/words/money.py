"""Numbers and money for people, by locale, through Babel: the narrator's name for
:mod:`tapete.core.money`, where the rule lives so that the engine's messages share it."""

from tapete.core.money import CODES as CODES
from tapete.core.money import amount_text as amount_text
from tapete.core.money import decimal as decimal
from tapete.core.money import money as money
from tapete.core.money import money_format as money_format
from tapete.core.money import money_text as money_text
from tapete.core.money import number as number
from tapete.core.money import percent as percent
