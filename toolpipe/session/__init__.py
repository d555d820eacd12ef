"""The session wing: a session's trace (JSON lines: a header, then turns, tool calls,
results and every effect with its answer) and its replay on the simulated clock.

Layout (private modules behind this face):

- ``_trace``: the record types, their encoding, ``dumps``/``loads_*``, ``TraceError``;
- ``_replay``: ``load_trace`` (checked, with line numbers), ``replay`` through a pipeline
  with recorded tools, ``differences`` and ``verdict``.

It may import the kernel and the agent wing's face; interpreters/recording.py writes
traces with it.
"""

from toolpipe.session._replay import CallDiff as CallDiff
from toolpipe.session._replay import Recording as Recording
from toolpipe.session._replay import Trace as Trace
from toolpipe.session._replay import differences as differences
from toolpipe.session._replay import load_trace as load_trace
from toolpipe.session._replay import replay as replay
from toolpipe.session._replay import replay_registry as replay_registry
from toolpipe.session._replay import verdict as verdict
from toolpipe.session._trace import FORMAT as FORMAT
from toolpipe.session._trace import VERSION as VERSION
from toolpipe.session._trace import Abandoned as Abandoned
from toolpipe.session._trace import EffectRecord as EffectRecord
from toolpipe.session._trace import Failed as Failed
from toolpipe.session._trace import Header as Header
from toolpipe.session._trace import ResultRecord as ResultRecord
from toolpipe.session._trace import Returned as Returned
from toolpipe.session._trace import ReturnedOther as ReturnedOther
from toolpipe.session._trace import ToolRecord as ToolRecord
from toolpipe.session._trace import TraceError as TraceError
from toolpipe.session._trace import TurnRecord as TurnRecord
from toolpipe.session._trace import dumps as dumps
from toolpipe.session._trace import effect_record as effect_record
from toolpipe.session._trace import loads_header as loads_header
from toolpipe.session._trace import loads_record as loads_record
from toolpipe.session._trace import outcome_of as outcome_of

__all__ = [
    "FORMAT", "VERSION", "Abandoned", "CallDiff", "EffectRecord", "Failed", "Header",
    "Recording", "ResultRecord", "Returned", "ReturnedOther", "ToolRecord", "Trace",
    "TraceError", "TurnRecord", "differences", "dumps", "effect_record", "load_trace",
    "loads_header", "loads_record", "outcome_of", "replay", "replay_registry", "verdict",
]
