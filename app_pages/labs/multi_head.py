from attention_ui import multi_head_lab as lab
from attention_ui.widgets import page_header, prev_next

page_header("multi-head")
lab.intro()
lab.heads()  # says what the scenario needs first when it cannot be split yet
lab.example()
lab.code()
prev_next("multi-head")
