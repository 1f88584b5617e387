"""The course around the library: what the lessons show and grade, not TensorFlow.

``plots`` (figures and widgets in the course language, the shipped CJK font in ``fonts``),
``exercises`` (the checkers of the graded exercises), ``error_display`` (a deliberate error shown
as one line), ``strategy_map`` and ``sync_vs_async`` (lesson 00's map and its toy timings),
``two_engines`` (lesson 10's sim.tf-versus-TensorFlow record). Nothing under ``sim/`` outside this
package imports it, except ``sim.setup`` and the command line (a test holds that order).
"""
