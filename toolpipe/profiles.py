"""ConstrainedProfile: the canonical order output_limit → verify → memoize → core."""

from __future__ import annotations

from typing import Any

import attrs

from toolpipe.layers.memoize import MemoizingMiddleware
from toolpipe.layers.output_limit import OutputLimitMiddleware
from toolpipe.layers.paths import NoPathExtractor
from toolpipe.layers.verify import NoopVerifier, VerifyMiddleware
from toolpipe.pipeline import PipelineBuilder
from toolpipe.registry import READ_TOOLS, WRITE_TOOLS, ToolRegistry
from toolpipe.roles import with_roles


@attrs.frozen
class ConstrainedProfile:
    """OutputLimit(16_384) → Verify(NoopVerifier, writes) → Memoize(reads, writes, no paths,
    ttl 5) → core. Layers a host adds to ``pipeline_builder()`` land inside memoize.
    Tools that are neither reads nor writes here (a shell) may change anything: memoize
    treats them as writes of unknown footprint, and checks every hit's stamps."""

    max_chars: int = 16_384
    verifier: Any = attrs.field(factory=NoopVerifier)
    read_tools: tuple[str, ...] = READ_TOOLS
    write_tools: tuple[str, ...] = WRITE_TOOLS
    ttl_turns: int = 5
    root: str | None = None
    """The workspace whose files the cache checks on every hit (``for_registry`` takes
    the registry's)."""

    @classmethod
    def for_registry(cls, registry: ToolRegistry, **options: Any) -> ConstrainedProfile:
        """The profile over ``registry``'s tools by role: the standard names, and every
        reader or searcher cached, every writer verified (see toolpipe.roles)."""
        roles = registry.roles()
        writes = tuple(with_roles(options.pop("write_tools", WRITE_TOOLS), roles,
                                  "file_write"))
        reads = tuple(n for n in with_roles(options.pop("read_tools", READ_TOOLS), roles,
                                            "file_read", "search") if n not in writes)
        options.setdefault("root", registry.workspace)
        return cls(read_tools=reads, write_tools=writes, **options)

    def pipeline_builder(self) -> PipelineBuilder:
        return (
            PipelineBuilder()
            .with_middleware(OutputLimitMiddleware(self.max_chars))
            .with_middleware(VerifyMiddleware(self.verifier, self.write_tools))
            .with_middleware(
                MemoizingMiddleware(
                    self.read_tools, self.write_tools, NoPathExtractor(), self.ttl_turns,
                    root=self.root,
                )
            )
        )
