"""Checkers for the graded exercises: one module per exercise, ``lessonNN_<topic>.py``.

A checker runs the learner's function on seeded cases, compares with the reference answer,
and tells the learner, in the course language, what is right and what is wrong.
"""
