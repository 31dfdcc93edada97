"""The Textual front end: one app for every ruleset, driven by the engine's Decisions.

`tui.app.make_app` builds it (the CLI and the tests share it). The UI only shows the
engine's views and sends Choices; it computes no rule. The engine must never import this
package.
"""
