"""A long training script: the server parses it in two halves when it is opened."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


model = torch.compile(Net())


def feature_0(x, scale=1):
    """Feature 0: a scaled, shifted copy of x."""
    y = x * scale + 0
    return y.clamp(min=-10.0, max=10.0)

def feature_1(x, scale=2):
    """Feature 1: a scaled, shifted copy of x."""
    y = x * scale + 1
    return y.clamp(min=-10.0, max=10.0)

def feature_2(x, scale=3):
    """Feature 2: a scaled, shifted copy of x."""
    y = x * scale + 2
    return y.clamp(min=-10.0, max=10.0)

def feature_3(x, scale=4):
    """Feature 3: a scaled, shifted copy of x."""
    y = x * scale + 3
    return y.clamp(min=-10.0, max=10.0)

def feature_4(x, scale=5):
    """Feature 4: a scaled, shifted copy of x."""
    y = x * scale + 4
    return y.clamp(min=-10.0, max=10.0)

def feature_5(x, scale=6):
    """Feature 5: a scaled, shifted copy of x."""
    y = x * scale + 5
    return y.clamp(min=-10.0, max=10.0)

def feature_6(x, scale=7):
    """Feature 6: a scaled, shifted copy of x."""
    y = x * scale + 6
    return y.clamp(min=-10.0, max=10.0)

def feature_7(x, scale=8):
    """Feature 7: a scaled, shifted copy of x."""
    y = x * scale + 7
    return y.clamp(min=-10.0, max=10.0)

def feature_8(x, scale=9):
    """Feature 8: a scaled, shifted copy of x."""
    y = x * scale + 8
    return y.clamp(min=-10.0, max=10.0)

def feature_9(x, scale=10):
    """Feature 9: a scaled, shifted copy of x."""
    y = x * scale + 9
    return y.clamp(min=-10.0, max=10.0)

def feature_10(x, scale=11):
    """Feature 10: a scaled, shifted copy of x."""
    y = x * scale + 10
    return y.clamp(min=-10.0, max=10.0)

def feature_11(x, scale=12):
    """Feature 11: a scaled, shifted copy of x."""
    y = x * scale + 11
    return y.clamp(min=-10.0, max=10.0)

def feature_12(x, scale=13):
    """Feature 12: a scaled, shifted copy of x."""
    y = x * scale + 12
    return y.clamp(min=-10.0, max=10.0)

def feature_13(x, scale=14):
    """Feature 13: a scaled, shifted copy of x."""
    y = x * scale + 13
    return y.clamp(min=-10.0, max=10.0)

def feature_14(x, scale=15):
    """Feature 14: a scaled, shifted copy of x."""
    y = x * scale + 14
    return y.clamp(min=-10.0, max=10.0)

def feature_15(x, scale=16):
    """Feature 15: a scaled, shifted copy of x."""
    y = x * scale + 15
    return y.clamp(min=-10.0, max=10.0)

def feature_16(x, scale=17):
    """Feature 16: a scaled, shifted copy of x."""
    y = x * scale + 16
    return y.clamp(min=-10.0, max=10.0)

def feature_17(x, scale=18):
    """Feature 17: a scaled, shifted copy of x."""
    y = x * scale + 17
    return y.clamp(min=-10.0, max=10.0)

def feature_18(x, scale=19):
    """Feature 18: a scaled, shifted copy of x."""
    y = x * scale + 18
    return y.clamp(min=-10.0, max=10.0)

def feature_19(x, scale=20):
    """Feature 19: a scaled, shifted copy of x."""
    y = x * scale + 19
    return y.clamp(min=-10.0, max=10.0)

def feature_20(x, scale=21):
    """Feature 20: a scaled, shifted copy of x."""
    y = x * scale + 20
    return y.clamp(min=-10.0, max=10.0)

def feature_21(x, scale=22):
    """Feature 21: a scaled, shifted copy of x."""
    y = x * scale + 21
    return y.clamp(min=-10.0, max=10.0)

def feature_22(x, scale=23):
    """Feature 22: a scaled, shifted copy of x."""
    y = x * scale + 22
    return y.clamp(min=-10.0, max=10.0)

def feature_23(x, scale=24):
    """Feature 23: a scaled, shifted copy of x."""
    y = x * scale + 23
    return y.clamp(min=-10.0, max=10.0)

def feature_24(x, scale=25):
    """Feature 24: a scaled, shifted copy of x."""
    y = x * scale + 24
    return y.clamp(min=-10.0, max=10.0)

def feature_25(x, scale=26):
    """Feature 25: a scaled, shifted copy of x."""
    y = x * scale + 25
    return y.clamp(min=-10.0, max=10.0)

def feature_26(x, scale=27):
    """Feature 26: a scaled, shifted copy of x."""
    y = x * scale + 26
    return y.clamp(min=-10.0, max=10.0)

def feature_27(x, scale=28):
    """Feature 27: a scaled, shifted copy of x."""
    y = x * scale + 27
    return y.clamp(min=-10.0, max=10.0)

def feature_28(x, scale=29):
    """Feature 28: a scaled, shifted copy of x."""
    y = x * scale + 28
    return y.clamp(min=-10.0, max=10.0)

def feature_29(x, scale=30):
    """Feature 29: a scaled, shifted copy of x."""
    y = x * scale + 29
    return y.clamp(min=-10.0, max=10.0)

def feature_30(x, scale=31):
    """Feature 30: a scaled, shifted copy of x."""
    y = x * scale + 30
    return y.clamp(min=-10.0, max=10.0)

def feature_31(x, scale=32):
    """Feature 31: a scaled, shifted copy of x."""
    y = x * scale + 31
    return y.clamp(min=-10.0, max=10.0)

def feature_32(x, scale=33):
    """Feature 32: a scaled, shifted copy of x."""
    y = x * scale + 32
    return y.clamp(min=-10.0, max=10.0)

def feature_33(x, scale=34):
    """Feature 33: a scaled, shifted copy of x."""
    y = x * scale + 33
    return y.clamp(min=-10.0, max=10.0)

def feature_34(x, scale=35):
    """Feature 34: a scaled, shifted copy of x."""
    y = x * scale + 34
    return y.clamp(min=-10.0, max=10.0)

def feature_35(x, scale=36):
    """Feature 35: a scaled, shifted copy of x."""
    y = x * scale + 35
    return y.clamp(min=-10.0, max=10.0)

def feature_36(x, scale=37):
    """Feature 36: a scaled, shifted copy of x."""
    y = x * scale + 36
    return y.clamp(min=-10.0, max=10.0)

def feature_37(x, scale=38):
    """Feature 37: a scaled, shifted copy of x."""
    y = x * scale + 37
    return y.clamp(min=-10.0, max=10.0)

def feature_38(x, scale=39):
    """Feature 38: a scaled, shifted copy of x."""
    y = x * scale + 38
    return y.clamp(min=-10.0, max=10.0)

def feature_39(x, scale=40):
    """Feature 39: a scaled, shifted copy of x."""
    y = x * scale + 39
    return y.clamp(min=-10.0, max=10.0)

def feature_40(x, scale=41):
    """Feature 40: a scaled, shifted copy of x."""
    y = x * scale + 40
    return y.clamp(min=-10.0, max=10.0)

def feature_41(x, scale=42):
    """Feature 41: a scaled, shifted copy of x."""
    y = x * scale + 41
    return y.clamp(min=-10.0, max=10.0)

def feature_42(x, scale=43):
    """Feature 42: a scaled, shifted copy of x."""
    y = x * scale + 42
    return y.clamp(min=-10.0, max=10.0)

def feature_43(x, scale=44):
    """Feature 43: a scaled, shifted copy of x."""
    y = x * scale + 43
    return y.clamp(min=-10.0, max=10.0)

def feature_44(x, scale=45):
    """Feature 44: a scaled, shifted copy of x."""
    y = x * scale + 44
    return y.clamp(min=-10.0, max=10.0)

def feature_45(x, scale=46):
    """Feature 45: a scaled, shifted copy of x."""
    y = x * scale + 45
    return y.clamp(min=-10.0, max=10.0)

def feature_46(x, scale=47):
    """Feature 46: a scaled, shifted copy of x."""
    y = x * scale + 46
    return y.clamp(min=-10.0, max=10.0)

def feature_47(x, scale=48):
    """Feature 47: a scaled, shifted copy of x."""
    y = x * scale + 47
    return y.clamp(min=-10.0, max=10.0)

def feature_48(x, scale=49):
    """Feature 48: a scaled, shifted copy of x."""
    y = x * scale + 48
    return y.clamp(min=-10.0, max=10.0)

def feature_49(x, scale=50):
    """Feature 49: a scaled, shifted copy of x."""
    y = x * scale + 49
    return y.clamp(min=-10.0, max=10.0)

def feature_50(x, scale=51):
    """Feature 50: a scaled, shifted copy of x."""
    y = x * scale + 50
    return y.clamp(min=-10.0, max=10.0)

def feature_51(x, scale=52):
    """Feature 51: a scaled, shifted copy of x."""
    y = x * scale + 51
    return y.clamp(min=-10.0, max=10.0)

def feature_52(x, scale=53):
    """Feature 52: a scaled, shifted copy of x."""
    y = x * scale + 52
    return y.clamp(min=-10.0, max=10.0)

def feature_53(x, scale=54):
    """Feature 53: a scaled, shifted copy of x."""
    y = x * scale + 53
    return y.clamp(min=-10.0, max=10.0)

def feature_54(x, scale=55):
    """Feature 54: a scaled, shifted copy of x."""
    y = x * scale + 54
    return y.clamp(min=-10.0, max=10.0)

def feature_55(x, scale=56):
    """Feature 55: a scaled, shifted copy of x."""
    y = x * scale + 55
    return y.clamp(min=-10.0, max=10.0)

def feature_56(x, scale=57):
    """Feature 56: a scaled, shifted copy of x."""
    y = x * scale + 56
    return y.clamp(min=-10.0, max=10.0)

def feature_57(x, scale=58):
    """Feature 57: a scaled, shifted copy of x."""
    y = x * scale + 57
    return y.clamp(min=-10.0, max=10.0)

def feature_58(x, scale=59):
    """Feature 58: a scaled, shifted copy of x."""
    y = x * scale + 58
    return y.clamp(min=-10.0, max=10.0)

def feature_59(x, scale=60):
    """Feature 59: a scaled, shifted copy of x."""
    y = x * scale + 59
    return y.clamp(min=-10.0, max=10.0)

def feature_60(x, scale=61):
    """Feature 60: a scaled, shifted copy of x."""
    y = x * scale + 60
    return y.clamp(min=-10.0, max=10.0)

def feature_61(x, scale=62):
    """Feature 61: a scaled, shifted copy of x."""
    y = x * scale + 61
    return y.clamp(min=-10.0, max=10.0)

def feature_62(x, scale=63):
    """Feature 62: a scaled, shifted copy of x."""
    y = x * scale + 62
    return y.clamp(min=-10.0, max=10.0)

def feature_63(x, scale=64):
    """Feature 63: a scaled, shifted copy of x."""
    y = x * scale + 63
    return y.clamp(min=-10.0, max=10.0)

def feature_64(x, scale=65):
    """Feature 64: a scaled, shifted copy of x."""
    y = x * scale + 64
    return y.clamp(min=-10.0, max=10.0)

def feature_65(x, scale=66):
    """Feature 65: a scaled, shifted copy of x."""
    y = x * scale + 65
    return y.clamp(min=-10.0, max=10.0)

def feature_66(x, scale=67):
    """Feature 66: a scaled, shifted copy of x."""
    y = x * scale + 66
    return y.clamp(min=-10.0, max=10.0)

def feature_67(x, scale=68):
    """Feature 67: a scaled, shifted copy of x."""
    y = x * scale + 67
    return y.clamp(min=-10.0, max=10.0)

def feature_68(x, scale=69):
    """Feature 68: a scaled, shifted copy of x."""
    y = x * scale + 68
    return y.clamp(min=-10.0, max=10.0)

def feature_69(x, scale=70):
    """Feature 69: a scaled, shifted copy of x."""
    y = x * scale + 69
    return y.clamp(min=-10.0, max=10.0)

def feature_70(x, scale=71):
    """Feature 70: a scaled, shifted copy of x."""
    y = x * scale + 70
    return y.clamp(min=-10.0, max=10.0)

def feature_71(x, scale=72):
    """Feature 71: a scaled, shifted copy of x."""
    y = x * scale + 71
    return y.clamp(min=-10.0, max=10.0)

def feature_72(x, scale=73):
    """Feature 72: a scaled, shifted copy of x."""
    y = x * scale + 72
    return y.clamp(min=-10.0, max=10.0)

def feature_73(x, scale=74):
    """Feature 73: a scaled, shifted copy of x."""
    y = x * scale + 73
    return y.clamp(min=-10.0, max=10.0)

def feature_74(x, scale=75):
    """Feature 74: a scaled, shifted copy of x."""
    y = x * scale + 74
    return y.clamp(min=-10.0, max=10.0)

def feature_75(x, scale=76):
    """Feature 75: a scaled, shifted copy of x."""
    y = x * scale + 75
    return y.clamp(min=-10.0, max=10.0)

def feature_76(x, scale=77):
    """Feature 76: a scaled, shifted copy of x."""
    y = x * scale + 76
    return y.clamp(min=-10.0, max=10.0)

def feature_77(x, scale=78):
    """Feature 77: a scaled, shifted copy of x."""
    y = x * scale + 77
    return y.clamp(min=-10.0, max=10.0)

def feature_78(x, scale=79):
    """Feature 78: a scaled, shifted copy of x."""
    y = x * scale + 78
    return y.clamp(min=-10.0, max=10.0)

def feature_79(x, scale=80):
    """Feature 79: a scaled, shifted copy of x."""
    y = x * scale + 79
    return y.clamp(min=-10.0, max=10.0)

def feature_80(x, scale=81):
    """Feature 80: a scaled, shifted copy of x."""
    y = x * scale + 80
    return y.clamp(min=-10.0, max=10.0)

def feature_81(x, scale=82):
    """Feature 81: a scaled, shifted copy of x."""
    y = x * scale + 81
    return y.clamp(min=-10.0, max=10.0)

def feature_82(x, scale=83):
    """Feature 82: a scaled, shifted copy of x."""
    y = x * scale + 82
    return y.clamp(min=-10.0, max=10.0)

def feature_83(x, scale=84):
    """Feature 83: a scaled, shifted copy of x."""
    y = x * scale + 83
    return y.clamp(min=-10.0, max=10.0)

def feature_84(x, scale=85):
    """Feature 84: a scaled, shifted copy of x."""
    y = x * scale + 84
    return y.clamp(min=-10.0, max=10.0)

def feature_85(x, scale=86):
    """Feature 85: a scaled, shifted copy of x."""
    y = x * scale + 85
    return y.clamp(min=-10.0, max=10.0)

def feature_86(x, scale=87):
    """Feature 86: a scaled, shifted copy of x."""
    y = x * scale + 86
    return y.clamp(min=-10.0, max=10.0)

def feature_87(x, scale=88):
    """Feature 87: a scaled, shifted copy of x."""
    y = x * scale + 87
    return y.clamp(min=-10.0, max=10.0)

def feature_88(x, scale=89):
    """Feature 88: a scaled, shifted copy of x."""
    y = x * scale + 88
    return y.clamp(min=-10.0, max=10.0)

def feature_89(x, scale=90):
    """Feature 89: a scaled, shifted copy of x."""
    y = x * scale + 89
    return y.clamp(min=-10.0, max=10.0)

def feature_90(x, scale=91):
    """Feature 90: a scaled, shifted copy of x."""
    y = x * scale + 90
    return y.clamp(min=-10.0, max=10.0)

def feature_91(x, scale=92):
    """Feature 91: a scaled, shifted copy of x."""
    y = x * scale + 91
    return y.clamp(min=-10.0, max=10.0)

def feature_92(x, scale=93):
    """Feature 92: a scaled, shifted copy of x."""
    y = x * scale + 92
    return y.clamp(min=-10.0, max=10.0)

def feature_93(x, scale=94):
    """Feature 93: a scaled, shifted copy of x."""
    y = x * scale + 93
    return y.clamp(min=-10.0, max=10.0)

def feature_94(x, scale=95):
    """Feature 94: a scaled, shifted copy of x."""
    y = x * scale + 94
    return y.clamp(min=-10.0, max=10.0)

def feature_95(x, scale=96):
    """Feature 95: a scaled, shifted copy of x."""
    y = x * scale + 95
    return y.clamp(min=-10.0, max=10.0)

def feature_96(x, scale=97):
    """Feature 96: a scaled, shifted copy of x."""
    y = x * scale + 96
    return y.clamp(min=-10.0, max=10.0)

def feature_97(x, scale=98):
    """Feature 97: a scaled, shifted copy of x."""
    y = x * scale + 97
    return y.clamp(min=-10.0, max=10.0)

def feature_98(x, scale=99):
    """Feature 98: a scaled, shifted copy of x."""
    y = x * scale + 98
    return y.clamp(min=-10.0, max=10.0)

def feature_99(x, scale=100):
    """Feature 99: a scaled, shifted copy of x."""
    y = x * scale + 99
    return y.clamp(min=-10.0, max=10.0)

def feature_100(x, scale=101):
    """Feature 100: a scaled, shifted copy of x."""
    y = x * scale + 100
    return y.clamp(min=-10.0, max=10.0)

def feature_101(x, scale=102):
    """Feature 101: a scaled, shifted copy of x."""
    y = x * scale + 101
    return y.clamp(min=-10.0, max=10.0)

def feature_102(x, scale=103):
    """Feature 102: a scaled, shifted copy of x."""
    y = x * scale + 102
    return y.clamp(min=-10.0, max=10.0)

def feature_103(x, scale=104):
    """Feature 103: a scaled, shifted copy of x."""
    y = x * scale + 103
    return y.clamp(min=-10.0, max=10.0)

def feature_104(x, scale=105):
    """Feature 104: a scaled, shifted copy of x."""
    y = x * scale + 104
    return y.clamp(min=-10.0, max=10.0)

def feature_105(x, scale=106):
    """Feature 105: a scaled, shifted copy of x."""
    y = x * scale + 105
    return y.clamp(min=-10.0, max=10.0)

def feature_106(x, scale=107):
    """Feature 106: a scaled, shifted copy of x."""
    y = x * scale + 106
    return y.clamp(min=-10.0, max=10.0)

def feature_107(x, scale=108):
    """Feature 107: a scaled, shifted copy of x."""
    y = x * scale + 107
    return y.clamp(min=-10.0, max=10.0)

def feature_108(x, scale=109):
    """Feature 108: a scaled, shifted copy of x."""
    y = x * scale + 108
    return y.clamp(min=-10.0, max=10.0)

def feature_109(x, scale=110):
    """Feature 109: a scaled, shifted copy of x."""
    y = x * scale + 109
    return y.clamp(min=-10.0, max=10.0)

def feature_110(x, scale=111):
    """Feature 110: a scaled, shifted copy of x."""
    y = x * scale + 110
    return y.clamp(min=-10.0, max=10.0)

def feature_111(x, scale=112):
    """Feature 111: a scaled, shifted copy of x."""
    y = x * scale + 111
    return y.clamp(min=-10.0, max=10.0)

def feature_112(x, scale=113):
    """Feature 112: a scaled, shifted copy of x."""
    y = x * scale + 112
    return y.clamp(min=-10.0, max=10.0)

def feature_113(x, scale=114):
    """Feature 113: a scaled, shifted copy of x."""
    y = x * scale + 113
    return y.clamp(min=-10.0, max=10.0)

def feature_114(x, scale=115):
    """Feature 114: a scaled, shifted copy of x."""
    y = x * scale + 114
    return y.clamp(min=-10.0, max=10.0)

def feature_115(x, scale=116):
    """Feature 115: a scaled, shifted copy of x."""
    y = x * scale + 115
    return y.clamp(min=-10.0, max=10.0)

def feature_116(x, scale=117):
    """Feature 116: a scaled, shifted copy of x."""
    y = x * scale + 116
    return y.clamp(min=-10.0, max=10.0)

def feature_117(x, scale=118):
    """Feature 117: a scaled, shifted copy of x."""
    y = x * scale + 117
    return y.clamp(min=-10.0, max=10.0)

def feature_118(x, scale=119):
    """Feature 118: a scaled, shifted copy of x."""
    y = x * scale + 118
    return y.clamp(min=-10.0, max=10.0)

def feature_119(x, scale=120):
    """Feature 119: a scaled, shifted copy of x."""
    y = x * scale + 119
    return y.clamp(min=-10.0, max=10.0)

def feature_120(x, scale=121):
    """Feature 120: a scaled, shifted copy of x."""
    y = x * scale + 120
    return y.clamp(min=-10.0, max=10.0)

def feature_121(x, scale=122):
    """Feature 121: a scaled, shifted copy of x."""
    y = x * scale + 121
    return y.clamp(min=-10.0, max=10.0)

def feature_122(x, scale=123):
    """Feature 122: a scaled, shifted copy of x."""
    y = x * scale + 122
    return y.clamp(min=-10.0, max=10.0)

def feature_123(x, scale=124):
    """Feature 123: a scaled, shifted copy of x."""
    y = x * scale + 123
    return y.clamp(min=-10.0, max=10.0)

def feature_124(x, scale=125):
    """Feature 124: a scaled, shifted copy of x."""
    y = x * scale + 124
    return y.clamp(min=-10.0, max=10.0)

def feature_125(x, scale=126):
    """Feature 125: a scaled, shifted copy of x."""
    y = x * scale + 125
    return y.clamp(min=-10.0, max=10.0)

def feature_126(x, scale=127):
    """Feature 126: a scaled, shifted copy of x."""
    y = x * scale + 126
    return y.clamp(min=-10.0, max=10.0)

def feature_127(x, scale=128):
    """Feature 127: a scaled, shifted copy of x."""
    y = x * scale + 127
    return y.clamp(min=-10.0, max=10.0)

def feature_128(x, scale=129):
    """Feature 128: a scaled, shifted copy of x."""
    y = x * scale + 128
    return y.clamp(min=-10.0, max=10.0)

def feature_129(x, scale=130):
    """Feature 129: a scaled, shifted copy of x."""
    y = x * scale + 129
    return y.clamp(min=-10.0, max=10.0)

def feature_130(x, scale=131):
    """Feature 130: a scaled, shifted copy of x."""
    y = x * scale + 130
    return y.clamp(min=-10.0, max=10.0)

def feature_131(x, scale=132):
    """Feature 131: a scaled, shifted copy of x."""
    y = x * scale + 131
    return y.clamp(min=-10.0, max=10.0)

def feature_132(x, scale=133):
    """Feature 132: a scaled, shifted copy of x."""
    y = x * scale + 132
    return y.clamp(min=-10.0, max=10.0)

def feature_133(x, scale=134):
    """Feature 133: a scaled, shifted copy of x."""
    y = x * scale + 133
    return y.clamp(min=-10.0, max=10.0)

def feature_134(x, scale=135):
    """Feature 134: a scaled, shifted copy of x."""
    y = x * scale + 134
    return y.clamp(min=-10.0, max=10.0)

def feature_135(x, scale=136):
    """Feature 135: a scaled, shifted copy of x."""
    y = x * scale + 135
    return y.clamp(min=-10.0, max=10.0)

def feature_136(x, scale=137):
    """Feature 136: a scaled, shifted copy of x."""
    y = x * scale + 136
    return y.clamp(min=-10.0, max=10.0)

def feature_137(x, scale=138):
    """Feature 137: a scaled, shifted copy of x."""
    y = x * scale + 137
    return y.clamp(min=-10.0, max=10.0)

def feature_138(x, scale=139):
    """Feature 138: a scaled, shifted copy of x."""
    y = x * scale + 138
    return y.clamp(min=-10.0, max=10.0)

def feature_139(x, scale=140):
    """Feature 139: a scaled, shifted copy of x."""
    y = x * scale + 139
    return y.clamp(min=-10.0, max=10.0)

def feature_140(x, scale=141):
    """Feature 140: a scaled, shifted copy of x."""
    y = x * scale + 140
    return y.clamp(min=-10.0, max=10.0)

def feature_141(x, scale=142):
    """Feature 141: a scaled, shifted copy of x."""
    y = x * scale + 141
    return y.clamp(min=-10.0, max=10.0)

def feature_142(x, scale=143):
    """Feature 142: a scaled, shifted copy of x."""
    y = x * scale + 142
    return y.clamp(min=-10.0, max=10.0)

def feature_143(x, scale=144):
    """Feature 143: a scaled, shifted copy of x."""
    y = x * scale + 143
    return y.clamp(min=-10.0, max=10.0)

def feature_144(x, scale=145):
    """Feature 144: a scaled, shifted copy of x."""
    y = x * scale + 144
    return y.clamp(min=-10.0, max=10.0)

def feature_145(x, scale=146):
    """Feature 145: a scaled, shifted copy of x."""
    y = x * scale + 145
    return y.clamp(min=-10.0, max=10.0)

def feature_146(x, scale=147):
    """Feature 146: a scaled, shifted copy of x."""
    y = x * scale + 146
    return y.clamp(min=-10.0, max=10.0)

def feature_147(x, scale=148):
    """Feature 147: a scaled, shifted copy of x."""
    y = x * scale + 147
    return y.clamp(min=-10.0, max=10.0)

def feature_148(x, scale=149):
    """Feature 148: a scaled, shifted copy of x."""
    y = x * scale + 148
    return y.clamp(min=-10.0, max=10.0)

def feature_149(x, scale=150):
    """Feature 149: a scaled, shifted copy of x."""
    y = x * scale + 149
    return y.clamp(min=-10.0, max=10.0)


fast_feature = torch.compile(feature_1)


def train(loader, epochs=2):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = ((model(feature_0(x)) - y) ** 2).mean()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    train([(torch.randn(4, 8), torch.randn(4, 8))])
