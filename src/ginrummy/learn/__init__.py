"""Training what the AI ships from self-play: reproducible from a seed, runnable on a cluster.

Unlike :mod:`ginrummy.ai`, this package sees true states (it plays the games whose hidden
cards become the labels); what it produces is a parameter file that the AI reads through its
views only. ``python -m ginrummy.learn --help`` lists the commands.
"""
