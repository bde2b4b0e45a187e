from setuptools import setup

setup(name="mingpt-like", packages=["mingpt"])
