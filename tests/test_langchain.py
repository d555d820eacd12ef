"""toolpipe in a LangChain agent (``create_agent(..., middleware=[ToolpipeMiddleware()])``),
on LangChain's own fake chat model, async and sync (tests/agent_tools.py: a blocked shell
command, a redacted secret, a cache hit), and the tool's own message kept when no layer
changed it."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest

from .agent_tools import CALLS, OPTIONS, check, make_tools

pytestmark = pytest.mark.skipif(importlib.util.find_spec("langchain") is None,
                                reason="LangChain is a test extra")


def agent_and_ran():
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool

    from interpreters.langchain import ToolpipeMiddleware

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    ran: list[str] = []
    model = Model(messages=iter([
        *(AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": key}])
          for name, args, key in CALLS), AIMessage(content="done")]))
    agent = create_agent(model, [tool(f) for f in make_tools(ran)],
                         middleware=[ToolpipeMiddleware(**OPTIONS)])
    return agent, ran


def checked(state, ran):
    from langchain_core.messages import ToolMessage

    answers = {m.tool_call_id: m for m in state["messages"] if isinstance(m, ToolMessage)}
    check({key: m.content for key, m in answers.items()}, ran)
    assert answers["c1"].status == "error" and answers["c5"].status == "success"


def test_an_async_agent():
    agent, ran = agent_and_ran()
    checked(asyncio.run(agent.ainvoke({"messages": [("user", "go")]})), ran)


def test_a_sync_agent():
    agent, ran = agent_and_ran()
    checked(agent.invoke({"messages": [("user", "go")]}), ran)


@pytest.mark.parametrize("answer, ran_after, text", [
    ("approve", ["chmod 777 build/out"], "ran chmod 777 build/out"),
    ({"type": "edit", "args": {"command": "chmod 755 build/out"}}, ["chmod 755 build/out"],
     "ran chmod 755 build/out"),
    ({"type": "reject", "reason": "not today"}, [],
     "Permission denied by a person: not today for tool 'run_command'"),
])
def test_a_question_pauses_the_graph_and_resumes_with_the_answer(answer, ran_after, text):
    """With ``interrupts=True`` the shield's question is LangGraph's interrupt: the graph
    stops (its state in the checkpointer) and goes on with ``Command(resume=...)``."""
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from interpreters.langchain import ToolpipeMiddleware

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    ran: list[str] = []
    model = Model(messages=iter([
        AIMessage(content="", tool_calls=[{"name": "run_command", "id": "c1",
                                           "args": {"command": "chmod 777 build/out"}}]),
        AIMessage(content="done")]))
    agent = create_agent(model, [tool(make_tools(ran)[0])], checkpointer=InMemorySaver(),
                         middleware=[ToolpipeMiddleware(interrupts=True)])
    config = {"configurable": {"thread_id": "t1"}}
    stopped = agent.invoke({"messages": [("user", "go")]}, config)
    [question] = stopped["__interrupt__"]
    assert question.value["call_id"] == "c1" and "chmod 777" in question.value["question"]
    assert ran == []  # nothing ran while the person had not answered
    resumed = agent.invoke(Command(resume=answer), config)
    [message] = [m for m in resumed["messages"] if isinstance(m, ToolMessage)]
    assert message.content == text and ran == ran_after
