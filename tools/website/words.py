"""The website's own words in each language (the lessons bring theirs; Sphinx and Furo theirs)."""
from __future__ import annotations

WORDS = {
    "en": {
        "site_title": "tf.distribute on simulated hardware",
        "languages": "Read in",
        "run_title": "Run this lesson",
        "slides": "For the classroom, the same lesson as slides (title, key figure, demo, summary):",
        "slides_link": "open the slideshow",
        "run_text": "From a clone of the repository (the two commands of the README):",
        "run_open": "then open",
        "exercise_open": "The exercise to fill in is",
        "solution_show": "Show the solution",
        "solution_hide": "Hide the solution",
        "widget_note": "In JupyterLab this figure is interactive: run the notebook to change its settings.",
        "course_map": "Course map",
        "glossary": "Glossary",
        "glossary_intro": ("The terms of TensorFlow's own Chinese and Portuguese documentation, used by every "
                           "lesson, exercise and message of the course. API names stay in English."),
        "lessons": "Lessons",
        "exercises": "Exercises",
        "choose": "Choose a language",
        "run_exercise_title": "Run this exercise",
        "run_exercise_open": "then open the exercise",
        "run_exercise_solution": "A worked solution is in",
        "guide_lesson": "The lesson's page",
        "glossary_link": "the glossary",
        "for_teachers": ("Teaching a class? The [teacher's guide](teaching.md) gives each lesson's time, "
                         "prerequisites and pitfalls, how to run the course on a JupyterHub, how to grade the "
                         "exercises with nbgrader and how to project a lesson as a slideshow."),
    },
    "zh": {
        "site_title": "在模拟硬件上学习 tf.distribute",
        "languages": "阅读语言",
        "run_title": "运行这节课",
        "slides": "课堂上可以用幻灯片展示这节课（标题、关键图表、演示和小结）：",
        "slides_link": "打开幻灯片",
        "run_text": "在仓库的克隆目录中运行（README 中的两个命令）：",
        "run_open": "然后打开",
        "exercise_open": "需要填写的练习是",
        "solution_show": "显示参考答案",
        "solution_hide": "隐藏参考答案",
        "widget_note": "在 JupyterLab 中这张图可以交互：运行笔记本即可修改它的设置。",
        "course_map": "课程地图",
        "glossary": "术语表",
        "glossary_intro": "本课程的每节课、每个练习和每条消息都使用 TensorFlow 官方中文和葡萄牙语文档中的术语。API 名称在所有语言中都保留英文。",
        "lessons": "课程",
        "exercises": "练习",
        "choose": "选择语言",
        "run_exercise_title": "运行这个练习",
        "run_exercise_open": "然后打开练习",
        "run_exercise_solution": "参考答案在",
        "guide_lesson": "这节课的页面",
        "glossary_link": "术语表",
        "for_teachers": ("要给一个班上课？[教师指南](teaching.md)给出每节课的时长、先修课和学习者容易困惑的地方，"
                         "以及如何在 JupyterHub 上为全班运行课程、如何用 nbgrader 批改练习、如何把一节课作为幻灯片投影。"),
    },
    "pt": {
        "site_title": "tf.distribute em hardware simulado",
        "languages": "Ler em",
        "run_title": "Execute esta lição",
        "slides": "Para a sala de aula, a mesma lição em slides (título, figura principal, demonstração e resumo):",
        "slides_link": "abrir os slides",
        "run_text": "A partir de um clone do repositório (os dois comandos do README):",
        "run_open": "depois abra",
        "exercise_open": "O exercício a preencher é",
        "solution_show": "Mostrar a solução",
        "solution_hide": "Ocultar a solução",
        "widget_note": "No JupyterLab esta figura é interativa: execute o notebook para mudar as configurações.",
        "course_map": "Mapa do curso",
        "glossary": "Glossário",
        "glossary_intro": ("Os termos da própria documentação do TensorFlow em chinês e em português, usados em "
                           "todas as lições, exercícios e mensagens do curso. Os nomes de API ficam em inglês."),
        "lessons": "Lições",
        "exercises": "Exercícios",
        "choose": "Escolha um idioma",
        "run_exercise_title": "Execute este exercício",
        "run_exercise_open": "depois abra o exercício",
        "run_exercise_solution": "Uma solução resolvida está em",
        "guide_lesson": "A página da lição",
        "glossary_link": "glossário",
        "for_teachers": ("Vai dar o curso para uma turma? O [guia do professor](teaching.md) traz a duração, os "
                         "pré-requisitos e as dúvidas típicas de cada lição, como rodar o curso em um JupyterHub, "
                         "como corrigir os exercícios com o nbgrader e como projetar uma lição como slides."),
    },
}


def word(lang: str, key: str) -> str:
    return WORDS[lang][key]
